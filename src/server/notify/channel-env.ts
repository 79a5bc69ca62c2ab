// What the alert channels take from the configuration: the product's name and the fixed API
// hosts of the services they call.
import type { Config } from '../config.ts';
import type { ChannelEnv } from './channels/channel.ts';

export function channelEnv(config: Pick<Config, 'productName' | 'channelApis'>): ChannelEnv {
  return { productName: config.productName, apiBase: { ...config.channelApis } };
}
