// debug_api (reference §4.10), the debug_witness plugin's set. Restricted: only users whose access
// entry lists debug_api get it. Runs in the front end: it drives the block producer.
import { defineApiSet, method, req } from '../types.js';

export const debugApi = defineApiSet({
  name: 'debug',
  accessName: 'debug_api',
  runsIn: 'front',
  methods: {
    debug_push_blocks: method(req('src_filename'), req('count')),
    debug_generate_blocks: method(req('debug_key'), req('count')),
    debug_update_object: method(req('update')),
    debug_stream_json_objects: method(req('filename')),
    debug_stream_json_objects_flush: method(),
  },
});
