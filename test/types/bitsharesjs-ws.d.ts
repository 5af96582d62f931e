declare module 'bitsharesjs-ws';
