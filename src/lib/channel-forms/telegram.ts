// Telegram's settings: the bot's token (secret) and the chat it posts to.
import type { ChannelForm } from './field.ts';

export const telegramForm: ChannelForm = {
  label: 'Telegram',
  fields: [
    {
      key: 'bot_token',
      label: 'Bot token',
      input: 'text',
      secret: true,
      hint: 'From @BotFather',
      max: 100,
      pattern: /^\d{5,}:[A-Za-z0-9_-]{30,}$/,
      expected: 'the token @BotFather gave, such as 123456789:AAE…',
    },
    {
      key: 'chat_id',
      label: 'Chat ID',
      input: 'text',
      placeholder: '-1001234567890 or @mychannel',
      max: 64,
      pattern: /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/,
      expected: 'a numeric chat ID such as -1001234567890 or a channel name such as @mychannel',
    },
  ],
};
