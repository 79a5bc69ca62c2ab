import type { HandlerMap } from '../handler-types.ts';
import { getCompanyUsage, updateCompanyProfile } from '../../domain/company/profile.ts';
import { changeCompanySubdomain } from '../../domain/company/subdomain.ts';
import { publicPortOf } from '../public-origin.ts';
import { getPlatformSettings, sendSmtpTest, updatePlatformSettings } from '../../domain/platform/platform.ts';

export const settingsHandlers = {
  updateCompanyProfile: async ({ ctx, params, body }) => updateCompanyProfile(ctx, params.id, body),
  changeCompanySubdomain: async ({ ctx, params, body, req }) =>
    changeCompanySubdomain(ctx, params.id, body, publicPortOf(req.headers.host, ctx.services.config)),
  getCompanyUsage: async ({ ctx, params }) => getCompanyUsage(ctx, params.id),
  getPlatformSettings: async ({ ctx }) => getPlatformSettings(ctx),
  updatePlatformSettings: async ({ ctx, body }) => updatePlatformSettings(ctx, body),
  sendSmtpTest: async ({ ctx }) => sendSmtpTest(ctx),
} satisfies HandlerMap;
