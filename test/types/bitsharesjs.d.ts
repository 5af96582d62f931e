// The parts of bitsharesjs (CommonJS, untyped) that test/serializer.test.ts and test/all-operations.test.ts use as a reference
// implementation of Graphene's serialiser. Import the default export: `import bjs from 'bitsharesjs'`.
declare module 'bitsharesjs' {
  interface BjsSerializer {
    fromObject(o: unknown): unknown;
    toObject(o: unknown): unknown;
    toBuffer(o: unknown): Buffer;
    fromBuffer(b: Buffer): unknown;
  }
  interface BjsPublicKey {
    toString(prefix?: string): string;
    toBuffer(): Buffer;
  }
  interface BjsPrivateKey {
    toPublicKey(): BjsPublicKey;
    toWif(): string;
  }
  interface BjsSignature {
    toBuffer(): Buffer;
    toHex(): string;
    recoverPublicKey(sha256: Buffer): BjsPublicKey;
  }
  interface BitsharesJs {
    ops: Record<string, BjsSerializer>;
    /** the type builders operations.js is made of (uint16, array(t), static_variant([…]), …) */
    types: Record<string, any>;
    Serializer: new (name: string, fields: Record<string, unknown>) => BjsSerializer;
    PublicKey: {
      fromPublicKeyString(s: string, prefix?: string): BjsPublicKey | null;
      fromStringOrThrow(s: string, prefix?: string): BjsPublicKey;
      fromBuffer(b: Buffer): BjsPublicKey;
    };
    PrivateKey: {
      fromWif(wif: string): BjsPrivateKey;
      fromSeed(seed: string): BjsPrivateKey;
    };
    Signature: {
      signBuffer(buf: Buffer, key: BjsPrivateKey): BjsSignature;
      signBufferSha256(sha256: Buffer, key: BjsPrivateKey): BjsSignature;
      fromHex(hex: string): BjsSignature;
    };
    hash: {
      sha256(data: Buffer | string): Buffer;
      ripemd160(data: Buffer | string): Buffer;
    };
  }
  const bitsharesjs: BitsharesJs;
  export default bitsharesjs;
}
