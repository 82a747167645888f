/**
 * The answer of GET /groups/{groupId}, made with the document's link among its first headers
 * (http/links.ts `linkedJson`): the same status, headers and body as any JSON answer of the API,
 * with one service-desc link whatever other middleware adds, and HEAD without a body.
 */

import { describe, expect, it } from 'vitest';
import { SERVICE_DESC_LINK } from '../../src/http/links.js';
import { standInApp } from '../support/stand-in-app.js';

const GROUP = {
  type: 'classic',
  groupId: 'g1',
  state: 'Empty',
  protocolType: 'consumer',
  protocol: '',
  members: [],
  coordinator: { nodeId: 1, host: 'stand-in', port: 9092 },
};

const methods = { describeGroup: async () => GROUP };

describe('the described group’s answer (stand-in service)', () => {
  it('is JSON with exactly one service-desc link', async () => {
    const res = await standInApp(methods).request('/groups/g1');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('link')).toBe(SERVICE_DESC_LINK);
    expect(await res.json()).toEqual(GROUP);
  });

  it('keeps one link when CORS headers are set before the route answers', async () => {
    const app = standInApp(methods, { CORS_ORIGINS: 'https://dash.example' });
    const res = await app.request('/groups/g1', { headers: { origin: 'https://dash.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://dash.example');
    expect(res.headers.get('link')).toBe(SERVICE_DESC_LINK);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await standInApp(methods).request('/groups/g1', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe(SERVICE_DESC_LINK);
    expect(await res.text()).toBe('');
  });
});
