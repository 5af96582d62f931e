// Paths of test fixtures, without loading the node (the replay recorder loads another build's).
import path from 'node:path';

/** A path under test/fixtures (the compiled tests run from dist/test). */
export const fixture = (name: string): string => path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../test/fixtures', name);
