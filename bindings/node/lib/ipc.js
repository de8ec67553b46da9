'use strict';
// The parent's end of Node's IPC channel, for children started with an
// 'ipc' entry in stdio (and so by fork()).
//
// The child is stock Node: it finds the channel's fd in NODE_CHANNEL_FD and
// its format in NODE_CHANNEL_SERIALIZATION_MODE. The parent's end here is a
// net.Socket over this package's socketpair, speaking the same wire format:
// - 'json': one JSON text per message, ended by '\n';
// - 'advanced': the message serialized by V8 (typed arrays and Buffers as
//   host objects behind a 0 tag, other host objects as a plain copy behind
//   a 1 tag), preceded by its length as a big-endian uint32.
// Messages whose `cmd` starts with 'NODE_' are Node's own ('internalMessage').
//
// Not done: handles (sockets, servers) in either direction: that needs the
// fds to travel as SCM_RIGHTS ancillary data, which a net.Socket over a
// plain socket cannot send or receive. send() with a handle throws
// ERR_FASTSPAWN_IPC_HANDLE_UNSUPPORTED; a handle the child sends is refused
// (NODE_HANDLE_NACK, as Node answers a message whose fd was lost), with a
// warning here.

const EventEmitter = require('node:events');
const net = require('node:net');
const v8 = require('node:v8');
const { StringDecoder } = require('node:string_decoder');

const errors = require('./errors');

// Node's own limit: once this many bytes wait to be written, send() says
// "stop sending" (returns false).
const WRITE_QUEUE_LIMIT = 65536 * 2;

const TAG_VIEW = 0;
const TAG_OTHER = 1;

class Serializer extends v8.DefaultSerializer {
  _writeHostObject(object) {
    if (ArrayBuffer.isView(object)) {
      this.writeUint32(TAG_VIEW);
      return super._writeHostObject(object);
    }
    this.writeUint32(TAG_OTHER);
    this.writeValue({ ...object });
    return undefined;
  }
}

class Deserializer extends v8.DefaultDeserializer {
  _readHostObject() {
    return this.readUint32() === TAG_VIEW ? super._readHostObject() : this.readValue();
  }
}

// Newline-delimited JSON.
class JsonCodec {
  constructor() {
    this.decoder = new StringDecoder('utf8');
    this.partial = '';
  }

  encode(message) {
    return `${JSON.stringify(message)}\n`;
  }

  decode(chunk, out) {
    const text = this.decoder.write(chunk);
    let start = 0;
    let end;
    while ((end = text.indexOf('\n', start)) !== -1) {
      let line = text.slice(start, end);
      if (this.partial !== '') {
        line = this.partial + line;
        this.partial = '';
      }
      out.push(JSON.parse(line));
      start = end + 1;
    }
    this.partial += text.slice(start);
  }
}

// Length-prefixed V8 serialization; a message may arrive in many reads.
class AdvancedCodec {
  constructor() {
    this.chunks = [];
    this.size = 0;
  }

  encode(message) {
    const serializer = new Serializer();
    serializer.writeRawBytes(Buffer.alloc(4));
    serializer.writeHeader();
    serializer.writeValue(message);
    const buffer = serializer.releaseBuffer();
    buffer.writeUInt32BE(buffer.length - 4, 0);
    return buffer;
  }

  decode(chunk, out) {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size >= 4) {
      if (this.chunks[0].length < 4) this.chunks = [Buffer.concat(this.chunks, this.size)];
      const end = this.chunks[0].readUInt32BE(0) + 4;
      if (this.size < end) break;
      const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
      const rest = all.subarray(end);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.size = rest.length;
      const deserializer = new Deserializer(all.subarray(4, end));
      deserializer.readHeader();
      out.push(deserializer.readValue());
    }
  }
}

function isInternal(message) {
  return (
    message !== null &&
    typeof message === 'object' &&
    typeof message.cmd === 'string' &&
    message.cmd.length > 5 &&
    message.cmd.startsWith('NODE_')
  );
}

// child.channel: Node's small control object (ref, unref, fd).
class Channel extends EventEmitter {
  constructor(socket) {
    super();
    this._socket = socket;
    // Messages that came before any 'message' listener (delivered to the
    // first one, as Node does).
    this.pending = [];
  }

  ref() {
    this._socket.ref();
  }

  unref() {
    this._socket.unref();
  }

  get fd() {
    const handle = this._socket._handle;
    return handle ? handle.fd : undefined;
  }
}

// Sets up child.send(), disconnect(), connected, channel and the
// 'message' / 'disconnect' events over the parent's end `fd`.
function setupChannel(child, fd, mode) {
  const { maybeClose } = require('./child_process');
  const socket = new net.Socket({ fd, readable: true, writable: true });
  const codec = mode === 'advanced' ? new AdvancedCodec() : new JsonCodec();
  const channel = new Channel(socket);
  let warned = false;
  let closed = false;

  child.channel = channel;
  child._ipc = socket;
  child.connected = true;

  const emitMessage = (event, message) => {
    if (event === 'internalMessage' || child.listenerCount('message') > 0) child.emit(event, message, undefined);
    else if (child.channel !== null) child.channel.pending.push([event, message]);
  };

  child.on('newListener', (event) => {
    if (event !== 'message') return;
    process.nextTick(() => {
      const ch = child.channel;
      if (!ch || child.listenerCount('message') === 0 || ch.pending.length === 0) return;
      const pending = ch.pending;
      ch.pending = [];
      for (const [name, message] of pending) child.emit(name, message, undefined);
    });
  });

  const messages = [];
  socket.on('data', (chunk) => {
    codec.decode(chunk, messages);
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i];
      if (child.channel === null) break;
      if (isInternal(message)) {
        if (message.cmd === 'NODE_HANDLE') {
          // The fd that came with it is lost (see the file's header).
          write({ cmd: 'NODE_HANDLE_NACK' }, null, true);
          if (!warned) {
            warned = true;
            process.emitWarning(errors.ipcHandleUnsupported().message, 'FastspawnWarning');
          }
          continue;
        }
        process.nextTick(emitMessage, 'internalMessage', message);
      } else {
        process.nextTick(emitMessage, 'message', message);
      }
    }
    messages.length = 0;
  });
  // The child closed its end (or exited): as Node, disconnect.
  socket.on('end', () => {
    if (child.connected) child.disconnect();
    socket.destroy();
  });
  socket.on('error', () => {
    // Write errors go to send()'s callback or 'error'; a read error ends
    // the channel like an end of stream.
    if (child.connected) child.disconnect();
  });
  socket.on('close', () => {
    if (closed) return;
    closed = true;
    child.channel = null;
    child.connected = false;
    if (!child._noStdio) maybeClose(child);
  });

  // Writes one message; errors go to `callback` or the child's 'error'
  // unless swallowed.
  function write(message, callback, swallowErrors) {
    socket.write(codec.encode(message), (err) => {
      if (err) {
        if (swallowErrors) return;
        const ex = errors.errnoError(typeof err.errno === 'number' ? err.errno : -32, 'write');
        if (typeof callback === 'function') callback(ex);
        else child.emit('error', ex);
      } else if (typeof callback === 'function') callback(null);
    });
    return socket.writableLength < WRITE_QUEUE_LIMIT;
  }

  child.send = function send(message, handle, options, callback) {
    if (typeof handle === 'function') {
      callback = handle;
      handle = undefined;
      options = undefined;
    } else if (typeof options === 'function') {
      callback = options;
      options = undefined;
    } else if (options !== undefined) {
      errors.validateObject(options, 'options');
    }
    const swallowErrors = typeof options === 'boolean' ? options : !!(options && options.swallowErrors);
    if (!this.connected) {
      const ex = errors.ipcChannelClosed();
      if (typeof callback === 'function') process.nextTick(callback, ex);
      else process.nextTick(() => this.emit('error', ex));
      return false;
    }
    if (message === undefined) throw errors.missingArgs('message');
    const type = typeof message;
    if (type !== 'string' && type !== 'object' && type !== 'number' && type !== 'boolean') {
      throw errors.invalidArgType('message', ['string', 'object', 'number', 'boolean'], message);
    }
    if (handle) throw errors.ipcHandleUnsupported();
    return write(message, callback, swallowErrors);
  };

  child.disconnect = function disconnect() {
    if (!this.connected) {
      this.emit('error', errors.ipcDisconnected());
      return;
    }
    this.connected = false;
    // No more messages are delivered; what was sent is still written out.
    this.channel = null;
    const finish = () => {
      if (socket.destroyed || socket.writableFinished) socket.destroy();
      else socket.end(() => socket.destroy());
      child.emit('disconnect');
    };
    process.nextTick(finish);
  };
}

module.exports = { setupChannel, AdvancedCodec, JsonCodec };
