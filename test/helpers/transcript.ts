// Protocol transcripts: files of requests and expected replies, replayed against a real server.
//
//   # comment                       ignored
//   @option name=value              a serve option for this file (before the first exchange)
//   @ws [user:password]             open a new WebSocket (optionally with Basic credentials); later
//                                   exchanges use it until the next @ws or @http
//   @http [user:password]           later exchanges are HTTP POSTs (optionally with Basic credentials)
//   @header Name: value             an extra raw header for the following HTTP requests
//   --> <request text>              send exactly this text
//   <-- <reply JSON>                the next reply must be exactly this text (after normalising)
//   <-- 400 <reply JSON>            over HTTP: the status, then the body
//   <-- 204                         over HTTP: this status and an empty body
//   <-- (none)                      over WebSocket: this request gets no reply
//
// Replies are compared as text, so key order and number formats are checked too. The only
// normalisation is of times that are "now": fc's log timestamps inside error data ("timestamp":"…"
// becomes "timestamp":"*") and a potential peer's "last_seen_time":"…" (becomes "last_seen_time":"*").

export type Step =
  | { kind: 'ws'; auth?: string; line: number }
  | { kind: 'http'; auth?: string; line: number }
  | { kind: 'header'; name: string; value: string; line: number }
  | { kind: 'send'; text: string; line: number }
  | { kind: 'expect'; status?: number; text?: string; none?: boolean; line: number };

export interface Transcript {
  options: Record<string, string>;
  steps: Step[];
}

export function parseTranscript(source: string): Transcript {
  const options: Record<string, string> = {};
  const steps: Step[] = [];
  source.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const s = raw.trimEnd();
    if (s.trim() === '' || s.trimStart().startsWith('#')) return;
    if (s.startsWith('@option ')) {
      const [name, ...rest] = s.slice(8).trim().split('=');
      options[name!.trim()] = rest.join('=').trim();
    } else if (s === '@ws' || s.startsWith('@ws ')) {
      steps.push({ kind: 'ws', auth: s.slice(3).trim() || undefined, line });
    } else if (s === '@http' || s.startsWith('@http ')) {
      steps.push({ kind: 'http', auth: s.slice(5).trim() || undefined, line });
    } else if (s.startsWith('@header ')) {
      const body = s.slice(8);
      const colon = body.indexOf(':');
      steps.push({ kind: 'header', name: body.slice(0, colon).trim(), value: body.slice(colon + 1).trim(), line });
    } else if (s.startsWith('--> ')) {
      steps.push({ kind: 'send', text: s.slice(4), line });
    } else if (s === '-->') {
      steps.push({ kind: 'send', text: '', line });
    } else if (s.startsWith('<-- ')) {
      const body = s.slice(4).trim();
      if (body === '(none)') steps.push({ kind: 'expect', none: true, line });
      else {
        const m = /^(\d{3})(?:\s+(.*))?$/.exec(body);
        if (m) steps.push({ kind: 'expect', status: Number(m[1]), text: m[2] ?? '', line });
        else steps.push({ kind: 'expect', text: body, line });
      }
    } else {
      throw new Error(`transcript line ${line}: cannot parse '${s}'`);
    }
  });
  return { options, steps };
}

export const normalise = (text: string): string =>
  text.replace(/"timestamp":"[^"]*"/g, '"timestamp":"*"').replace(/"last_seen_time":"[^"]*"/g, '"last_seen_time":"*"');
