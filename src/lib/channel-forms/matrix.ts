// Matrix's settings: the homeserver, the access token of the account that posts (secret), and the
// room, by its ID (an alias can be moved to another room, the ID cannot).
import type { ChannelForm } from './field.ts';

export const matrixForm: ChannelForm = {
  label: 'Matrix',
  fields: [
    { key: 'homeserver_url', label: 'Homeserver URL', input: 'url', placeholder: 'https://matrix.example.org' },
    {
      key: 'access_token',
      label: 'Access token',
      input: 'text',
      secret: true,
      hint: "The posting account's access token (a bot account that has joined the room)",
      max: 512,
      pattern: /^[\x21-\x7e]{8,512}$/,
      expected: 'a Matrix access token (no spaces)',
    },
    {
      key: 'room_id',
      label: 'Room ID',
      input: 'text',
      placeholder: '!AbCdEfGh:matrix.example.org',
      hint: 'Room settings → Advanced → Internal room ID',
      max: 255,
      pattern: /^![^:\s]+:[^\s]+$/,
      expected: 'a room ID such as !AbCdEfGh:matrix.example.org',
    },
  ],
};
