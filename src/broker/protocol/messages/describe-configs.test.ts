import { describe, expect, it } from 'vitest';
import { UnsupportedFieldVersionError } from '../decode-error.js';
import { expectRoundTrip, expectTruncationsFail, fuzz, hex, toHex, versionsOf } from '../test-utils.js';
import {
  ConfigResourceType,
  DescribeConfigs,
  type DescribeConfigsRequest,
  type DescribeConfigsResponse,
} from './describe-configs.js';

const request = (v: number): DescribeConfigsRequest => ({
  resources: [
    { resourceType: ConfigResourceType.Group, resourceName: 'orders', configurationKeys: null },
    {
      resourceType: ConfigResourceType.Group,
      resourceName: 'ñ',
      configurationKeys: ['share.auto.offset.reset'],
    },
  ],
  includeSynonyms: true,
  ...(v >= 3 && { includeDocumentation: true }),
});

const response = (v: number): DescribeConfigsResponse => ({
  throttleTimeMs: 5,
  results: [
    {
      errorCode: 0,
      errorMessage: null,
      resourceType: 32,
      resourceName: 'orders',
      configs: [
        {
          name: 'consumer.session.timeout.ms',
          value: '45000',
          readOnly: false,
          configSource: 5,
          isSensitive: false,
          synonyms: [{ name: 'group.consumer.session.timeout.ms', value: '45000', source: 5 }],
          ...(v >= 3 && { configType: 3, documentation: 'The timeout' }),
        },
        {
          name: 'secret',
          value: null,
          readOnly: true,
          configSource: 8,
          isSensitive: true,
          synonyms: [],
          ...(v >= 3 && { configType: 9, documentation: null }),
        },
      ],
    },
    { errorCode: 24, errorMessage: 'bad', resourceType: 32, resourceName: '', configs: [] },
  ],
});

// Golden bodies from the grammar kafka-clients 4.4.0 prints (see describe-configs.ts).
const REQUEST_V1 = hex`
  00 00 00 01                   # Resources: 1 (int32 count)
  20                            #   ResourceType 32 (GROUP)
  00 01 67                      #   ResourceName "g"
  ff ff ff ff                   #   ConfigurationKeys null (every config)
  00                            # IncludeSynonyms false
`;
const REQUEST_V4 = hex`
  02                            # Resources: 1 (compact)
  20                            #   ResourceType 32 (GROUP)
  02 67                         #   ResourceName "g"
  00                            #   ConfigurationKeys null
  00                            #   tagged fields
  00                            # IncludeSynonyms false
  00                            # IncludeDocumentation false
  00                            # tagged fields
`;
const RESPONSE_V4 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  02                            # Results: 1
  00 00                         #   ErrorCode 0
  00                            #   ErrorMessage null
  20                            #   ResourceType 32
  02 67                         #   ResourceName "g"
  02                            #   Configs: 1
  02 61                         #     Name "a"
  02 31                         #     Value "1"
  00                            #     ReadOnly false
  08                            #     ConfigSource 8 (GROUP_CONFIG)
  00                            #     IsSensitive false
  01                            #     Synonyms: 0
  03                            #     ConfigType 3 (INT)
  00                            #     Documentation null
  00                            #     tagged fields
  00                            #   tagged fields
  00                            # tagged fields
`;

describe('DescribeConfigs codec', () => {
  it('has the key and versions of kafka-clients 4.4.0', () => {
    expect(DescribeConfigs).toMatchObject({ apiKey: 32, minVersion: 1, maxVersion: 4, flexibleFrom: 4 });
  });

  it.each(versionsOf(DescribeConfigs))('round-trips request and response v%i', (v) => {
    expectRoundTrip(DescribeConfigs, v, request(v), response(v));
  });

  it('matches golden bytes', () => {
    const req = {
      resources: [{ resourceType: 32, resourceName: 'g', configurationKeys: null }],
      includeSynonyms: false,
    };
    expect(toHex(DescribeConfigs.encodeRequest(1, req))).toBe(toHex(REQUEST_V1));
    const req4 = { ...req, includeDocumentation: false };
    expect(toHex(DescribeConfigs.encodeRequest(4, req4))).toBe(toHex(REQUEST_V4));
    expect(DescribeConfigs.decodeRequest(4, REQUEST_V4)).toStrictEqual(req4);
    const res4: DescribeConfigsResponse = {
      throttleTimeMs: 0,
      results: [
        {
          errorCode: 0,
          errorMessage: null,
          resourceType: 32,
          resourceName: 'g',
          configs: [
            {
              name: 'a',
              value: '1',
              readOnly: false,
              configSource: 8,
              isSensitive: false,
              synonyms: [],
              configType: 3,
              documentation: null,
            },
          ],
        },
      ],
    };
    expect(toHex(DescribeConfigs.encodeResponse(4, res4))).toBe(toHex(RESPONSE_V4));
    expect(DescribeConfigs.decodeResponse(4, RESPONSE_V4)).toStrictEqual(res4);
  });

  it('refuses v3 fields before v3', () => {
    expect(() => DescribeConfigs.encodeRequest(2, { ...request(2), includeDocumentation: true })).toThrow(
      UnsupportedFieldVersionError,
    );
  });

  it('fails cleanly on truncations and survives random bytes', () => {
    expectTruncationsFail((b) => DescribeConfigs.decodeResponse(4, b), RESPONSE_V4);
    expectTruncationsFail((b) => DescribeConfigs.decodeRequest(4, b), REQUEST_V4);
    fuzz(
      DescribeConfigs,
      versionsOf(DescribeConfigs).map((v) => ({
        version: v,
        request: DescribeConfigs.encodeRequest(v, request(v)),
        response: DescribeConfigs.encodeResponse(v, response(v)),
      })),
    );
  });
});
