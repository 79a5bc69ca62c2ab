// Tenant logos are decoded and drawn again at upload: what only looks like an image is refused
// with a form message, a real image loses anything appended to it and its metadata, a
// decompression bomb is refused from its header, and the status page serves the clean bytes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { crc32, deflateSync } from 'node:zlib';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedUser, signIn } from '../../support/fixtures.ts';

const PAYLOAD = '<html><script>alert(document.cookie)</script></html>';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** A valid 1-bit PNG of side × side pixels, all black: tens of KB that inflate to side²/8 bytes. */
function bombPng(side: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc(side * (1 + Math.ceil(side / 8))); // filter byte 0 + zero pixels per row
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const image = (width: number, height: number) => sharp({ create: { width, height, channels: 4, background: '#1e90ff' } });
const dataUrlBytes = (url: string) => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');

describe.each(DB_KINDS)('tenant logos on %s', (kind) => {
  let t: TestApp;
  let root: ApiClient;
  let n = 0;
  const form = (over: Record<string, unknown>) => ({
    name: 'Initech',
    email: 'hello@initech.example.com',
    subdomain: `logo${kind}${++n}`,
    ...over,
  });

  beforeAll(async () => {
    t = await startTestApp({ db: kind });
    const admin = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    root = t.client();
    await signIn(root, admin);
  });
  afterAll(async () => t?.close());

  it('refuses a PNG signature followed by HTML with a form message', async () => {
    const polyglot = Buffer.concat([PNG_SIGNATURE, Buffer.from(PAYLOAD)]).toString('base64');
    for (const [field, label] of [
      ['logo_base64', 'Logo'],
      ['horizontal_logo_base64', 'Horizontal logo'],
    ]) {
      const r = await root.post('/api/v1/admin/companies', form({ [field]: polyglot }));
      expect(r.status).toBe(400);
      const message = `${label} could not be read as a PNG, JPEG or WebP image: upload the image file itself.`;
      expect(r.body.errors[field]).toBe(message);
      expect(r.body.detail).toBe(message);
    }
  });

  it('keeps a real PNG but drops what was appended to it, and the status page serves the clean image', async () => {
    const png = await image(64, 32).png().toBuffer();
    const withPayload = Buffer.concat([png, Buffer.from(PAYLOAD)]);
    const r = await root.post('/api/v1/admin/companies', form({ logo_base64: withPayload.toString('base64') }));
    expect(r.status).toBe(201);
    const stored = dataUrlBytes(r.body.logo_base64);
    expect(r.body.logo_base64).toMatch(/^data:image\/png;base64,/);
    expect(stored.includes(Buffer.from('<script'))).toBe(false);
    expect(await sharp(stored).metadata()).toMatchObject({ format: 'png', width: 64, height: 32 });

    const page = await t.client().get(`/api/v1/public/public-status/${r.body.subdomain}`);
    expect(page.status).toBe(200);
    expect(page.body.company.logo_base64).toBe(r.body.logo_base64);
    expect(page.text).not.toContain(Buffer.from(PAYLOAD).toString('base64').slice(0, 24));

    const updated = await root.put(`/api/v1/admin/companies/${r.body.id}`, {
      ...form({ horizontal_logo_base64: `data:image/png;base64,${withPayload.toString('base64')}` }),
      subdomain: r.body.subdomain,
    });
    expect(updated.status).toBe(200);
    expect(dataUrlBytes(updated.body.horizontal_logo_base64).includes(Buffer.from('<script'))).toBe(false);
  });

  it('drops metadata and bounds the size of what it keeps', async () => {
    const jpeg = await image(2000, 1000)
      .jpeg()
      .withExif({ IFD0: { Copyright: 'EXIF-SECRET-GPS' } })
      .toBuffer();
    expect(jpeg.includes(Buffer.from('EXIF-SECRET-GPS'))).toBe(true);
    const r = await root.post('/api/v1/admin/companies', form({ logo_base64: `data:image/jpeg;base64,${jpeg.toString('base64')}` }));
    expect(r.status).toBe(201);
    const stored = dataUrlBytes(r.body.logo_base64);
    expect(stored.includes(Buffer.from('EXIF-SECRET-GPS'))).toBe(false);
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ width: 1024, height: 512 });
    expect(meta.exif).toBeUndefined();
    const webp = await image(40, 40).webp().toBuffer();
    const w = await root.post('/api/v1/admin/companies', form({ logo_base64: webp.toString('base64') }));
    expect(w.status).toBe(201);
    expect(await sharp(dataUrlBytes(w.body.logo_base64)).metadata()).toMatchObject({ width: 40, height: 40 });
  });

  it('refuses a decompression bomb from its header', async () => {
    const bomb = bombPng(20_000); // 50 MB of pixels in ~50 KB
    expect(bomb.length).toBeLessThan(512 * 1024);
    const started = Date.now();
    const r = await root.post('/api/v1/admin/companies', form({ logo_base64: bomb.toString('base64') }));
    expect(r.status).toBe(400);
    expect(r.body.errors.logo_base64).toBe('Logo must be at most 4096 × 4096 pixels.');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
