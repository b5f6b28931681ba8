import { createGenhubClient, GenhubRequestError } from './genhub.client';
import { uploadMedia } from './media-upload.client';

const ticket = {
  code: 200,
  message: 'success',
  data: {
    download_url: 'http://gw.test/media/u1/cat.png',
    upload: {
      url: 'http://storage.test/put/u1?sig=abc',
      method: 'PUT',
      headers: { 'Content-Type': 'image/png', 'Content-Length': '4' },
    },
    expires_at: '2026-01-01T00:15:00.000Z',
  },
};

function apiFetch(status: number, body: unknown) {
  const requests: Request[] = [];
  const fetch = async (input: Request) => {
    requests.push(input);
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch, requests };
}

function storageFetch(status: number, body = '') {
  const puts: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    puts.push({ url, init });
    return new Response(body, { status });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, puts };
}

const file = Object.assign(
  new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' }),
  {
    name: 'cat.png',
  },
);

describe('uploadMedia', () => {
  it('declares the exact name, size and type, PUTs the bytes with the ticket’s headers, and answers the download URL', async () => {
    const api = apiFetch(200, ticket);
    const storage = storageFetch(200);
    const client = createGenhubClient({
      baseUrl: 'http://gw.test',
      apiKey: 'sk-1',
      fetch: api.fetch,
    });
    await expect(uploadMedia(client, file, { fetch: storage.fetch })).resolves.toBe(
      'http://gw.test/media/u1/cat.png',
    );
    expect(api.requests[0].url).toBe('http://gw.test/api/v3/media/uploads');
    expect(await api.requests[0].json()).toEqual({
      filename: 'cat.png',
      size: 4,
      content_type: 'image/png',
    });
    expect(storage.puts).toEqual([
      {
        url: ticket.data.upload.url,
        init: expect.objectContaining({
          method: 'PUT',
          headers: ticket.data.upload.headers,
          body: file,
        }),
      },
    ]);
  });

  it('throws the ticket’s refusal and sends no bytes', async () => {
    const refusal = { code: 400, message: 'size must not be greater than 20971520', data: null };
    const api = apiFetch(400, refusal);
    const storage = storageFetch(200);
    const client = createGenhubClient({
      baseUrl: 'http://gw.test',
      apiKey: 'sk-1',
      fetch: api.fetch,
    });
    const error = await uploadMedia(client, file, { fetch: storage.fetch }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GenhubRequestError);
    expect(error).toMatchObject({ status: 400, body: refusal });
    expect(storage.puts).toEqual([]);
  });

  it('throws the storage’s refusal of the PUT with its body (XML kept as text)', async () => {
    const api = apiFetch(200, ticket);
    const storage = storageFetch(403, '<Error><Code>SignatureDoesNotMatch</Code></Error>');
    const client = createGenhubClient({
      baseUrl: 'http://gw.test',
      apiKey: 'sk-1',
      fetch: api.fetch,
    });
    await expect(uploadMedia(client, file, { fetch: storage.fetch })).rejects.toMatchObject({
      status: 403,
      body: '<Error><Code>SignatureDoesNotMatch</Code></Error>',
    });
  });
});
