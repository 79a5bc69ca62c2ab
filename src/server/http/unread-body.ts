// Answering a request whose body has not all arrived (a bad key, a body over a cap, too slow)
// without reading the rest: Node would otherwise drain it, to keep the connection alive or
// while closing, and a client can make that rest endless. The answer says Connection: close;
// once it is written the socket is no longer read (the kernel buffers fill and the sender
// blocks), the server half-closes, and it destroys the socket LINGER_MS later. The pause before
// destroying lets a client still busy writing read the answer first: destroying a socket with
// unread input sends a TCP reset, and a client hit by it mid-write may never see the 401/413
// and retry as after a network error.
import type { Socket } from 'node:net';

export const LINGER_MS = 500;

export function closeWithoutDraining(socket: Socket | null): void {
  if (!socket) return;
  // Node calls destroySoon() once an answer with Connection: close is written, right after it
  // resumed the unread request to discard it; its own destroySoon would destroy at once.
  socket.destroySoon = function lingerThenDestroy(this: Socket) {
    if (this.writable) this.end();
    // A paused socket is not read (Node's HTTP server stops its handle on 'pause'); whatever
    // resumes it to discard the body is undone on the spot.
    this.pause();
    this.on('resume', () => this.pause());
    setTimeout(() => this.destroy(), LINGER_MS).unref();
  };
}
