import { describe, expect, it } from 'vitest';
import { expectRoundTrip, expectTruncationsFail, fuzz, hex, toHex, versionsOf } from '../test-utils.js';
import {
  IncrementalAlterConfigs,
  type IncrementalAlterConfigsRequest,
  type IncrementalAlterConfigsResponse,
} from './incremental-alter-configs.js';

const request: IncrementalAlterConfigsRequest = {
  resources: [
    {
      resourceType: 32,
      resourceName: 'orders',
      configs: [
        { name: 'share.auto.offset.reset', configOperation: 0, value: 'earliest' },
        { name: 'consumer.session.timeout.ms', configOperation: 1, value: null },
      ],
    },
  ],
  validateOnly: true,
};

const response: IncrementalAlterConfigsResponse = {
  throttleTimeMs: 0,
  responses: [{ errorCode: 40, errorMessage: 'Invalid value', resourceType: 32, resourceName: 'orders' }],
};

// Golden bodies from the grammar kafka-clients 4.4.0 prints (see incremental-alter-configs.ts).
const REQUEST_V0 = hex`
  00 00 00 01                   # Resources: 1 (int32 count)
  20                            #   ResourceType 32 (GROUP)
  00 01 67                      #   ResourceName "g"
  00 00 00 01                   #   Configs: 1
  00 01 61                      #     Name "a"
  00                            #     ConfigOperation 0 (SET)
  00 01 31                      #     Value "1"
  01                            # ValidateOnly true
`;
const REQUEST_V1 = hex`
  02                            # Resources: 1 (compact)
  20                            #   ResourceType 32 (GROUP)
  02 67                         #   ResourceName "g"
  02                            #   Configs: 1
  02 61                         #     Name "a"
  01                            #     ConfigOperation 1 (DELETE)
  00                            #     Value null
  00                            #     tagged fields
  00                            #   tagged fields
  00                            # ValidateOnly false
  00                            # tagged fields
`;
const RESPONSE_V1 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  02                            # Responses: 1
  00 28                         #   ErrorCode 40 (INVALID_CONFIG)
  02 78                         #   ErrorMessage "x"
  20                            #   ResourceType 32
  02 67                         #   ResourceName "g"
  00                            #   tagged fields
  00                            # tagged fields
`;

describe('IncrementalAlterConfigs codec', () => {
  it('has the key and versions of kafka-clients 4.4.0', () => {
    expect(IncrementalAlterConfigs).toMatchObject({
      apiKey: 44,
      minVersion: 0,
      maxVersion: 1,
      flexibleFrom: 1,
    });
  });

  it.each(versionsOf(IncrementalAlterConfigs))('round-trips request and response v%i', (v) => {
    expectRoundTrip(IncrementalAlterConfigs, v, request, response);
  });

  it('matches golden bytes', () => {
    const set = {
      resources: [
        { resourceType: 32, resourceName: 'g', configs: [{ name: 'a', configOperation: 0, value: '1' }] },
      ],
      validateOnly: true,
    };
    expect(toHex(IncrementalAlterConfigs.encodeRequest(0, set))).toBe(toHex(REQUEST_V0));
    const del = {
      resources: [
        { resourceType: 32, resourceName: 'g', configs: [{ name: 'a', configOperation: 1, value: null }] },
      ],
      validateOnly: false,
    };
    expect(toHex(IncrementalAlterConfigs.encodeRequest(1, del))).toBe(toHex(REQUEST_V1));
    expect(IncrementalAlterConfigs.decodeRequest(1, REQUEST_V1)).toStrictEqual(del);
    const res = {
      throttleTimeMs: 0,
      responses: [{ errorCode: 40, errorMessage: 'x', resourceType: 32, resourceName: 'g' }],
    };
    expect(toHex(IncrementalAlterConfigs.encodeResponse(1, res))).toBe(toHex(RESPONSE_V1));
    expect(IncrementalAlterConfigs.decodeResponse(1, RESPONSE_V1)).toStrictEqual(res);
  });

  it('fails cleanly on truncations and survives random bytes', () => {
    expectTruncationsFail((b) => IncrementalAlterConfigs.decodeResponse(1, b), RESPONSE_V1);
    expectTruncationsFail((b) => IncrementalAlterConfigs.decodeRequest(0, b), REQUEST_V0);
    fuzz(
      IncrementalAlterConfigs,
      versionsOf(IncrementalAlterConfigs).map((v) => ({
        version: v,
        request: IncrementalAlterConfigs.encodeRequest(v, request),
        response: IncrementalAlterConfigs.encodeResponse(v, response),
      })),
    );
  });
});
