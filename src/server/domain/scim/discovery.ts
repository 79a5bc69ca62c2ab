// The discovery documents of RFC 7644 section 4: what this service provider supports (PATCH, the
// one equality filter, no bulk, sort, ETags or password change), its two resource types and the
// attributes of their schemas. They say what the code does: patch.ts, query.ts, resources.ts.
import { MAX_COUNT } from './query.ts';
import { GROUP_SCHEMA, USER_SCHEMA } from './resources.ts';

const SPC_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

export function serviceProviderConfig(base: string) {
  return {
    schemas: [SPC_SCHEMA],
    documentationUri: `${base.replace(/\/scim\/v2$/, '')}/docs/features/scim`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: "The company's SCIM token, created on the Settings screen: Authorization: Bearer sws_…",
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

function resourceTypes(base: string) {
  return [
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A person of the company; userName is their e-mail address',
      schema: USER_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` },
    },
    {
      schemas: [RESOURCE_TYPE_SCHEMA],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: "A group of the company's people; two groups named on the Settings screen set roles",
      schema: GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` },
    },
  ];
}

export function resourceTypeList(base: string) {
  const all = resourceTypes(base);
  return { schemas: [LIST], totalResults: all.length, startIndex: 1, itemsPerPage: all.length, Resources: all };
}

const attr = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

function schemas(base: string) {
  return [
    {
      schemas: [SCHEMA_SCHEMA],
      id: USER_SCHEMA,
      name: 'User',
      description: 'User Account',
      attributes: [
        attr('userName', 'string', { required: true, uniqueness: 'server', description: 'The e-mail address the person signs in with' }),
        attr('name', 'complex', {
          subAttributes: [attr('givenName', 'string'), attr('familyName', 'string'), attr('formatted', 'string')],
        }),
        attr('displayName', 'string'),
        attr('emails', 'complex', {
          multiValued: true,
          description: 'One work address, the same as userName: changing it changes userName',
          subAttributes: [attr('value', 'string'), attr('type', 'string', { canonicalValues: ['work'] }), attr('primary', 'boolean')],
        }),
        attr('active', 'boolean', { description: 'false: sessions end, API tokens are revoked, sign-in is refused' }),
        attr('password', 'string', { mutability: 'writeOnly', returned: 'never' }),
        attr('externalId', 'string', { caseExact: true }),
      ],
      meta: { resourceType: 'Schema', location: `${base}/Schemas/${USER_SCHEMA}` },
    },
    {
      schemas: [SCHEMA_SCHEMA],
      id: GROUP_SCHEMA,
      name: 'Group',
      description: 'Group',
      attributes: [
        attr('displayName', 'string', { required: true, uniqueness: 'server' }),
        attr('members', 'complex', {
          multiValued: true,
          subAttributes: [attr('value', 'string', { mutability: 'immutable' }), attr('display', 'string', { mutability: 'readOnly' })],
        }),
        attr('externalId', 'string', { caseExact: true }),
      ],
      meta: { resourceType: 'Schema', location: `${base}/Schemas/${GROUP_SCHEMA}` },
    },
  ];
}

export function schemaList(base: string) {
  const all = schemas(base);
  return { schemas: [LIST], totalResults: all.length, startIndex: 1, itemsPerPage: all.length, Resources: all };
}
