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
// Handles (net.Socket, net.Server, dgram.Socket, their native handles) are
// sent as Node does: a NODE_HANDLE message with the fd attached as
// SCM_RIGHTS (written by the addon, as libuv's write with a handle is not
// reachable from here), one at a time, each waiting for the child's
// NODE_HANDLE_ACK. Handles the child sends are received as Node receives
// them: the parent's end is a Pipe handle of the IPC kind, so libuv reads
// with recvmsg and hands over the fd as the handle's `pendingHandle`; the
// NODE_HANDLE message is acknowledged and emitted with the handle turned
// into the object the child sent. Where Node's Pipe class is not reachable
// (Deno) the channel is a plain socket, whose reads drop the fds: a handle
// the child sends is refused then (NODE_HANDLE_NACK, as Node answers a
// message whose fd was lost) with a warning.

const dgram = require('node:dgram');
const EventEmitter = require('node:events');
const net = require('node:net');
const os = require('node:os');
const v8 = require('node:v8');
const { StringDecoder } = require('node:string_decoder');
const { deprecate } = require('node:util');

const errors = require('./errors');
const { addon } = require('./native');

const EAGAIN = -os.constants.errno.EAGAIN;
// Node's: a handle refused this many times more is given up.
const MAX_HANDLE_RETRANSMISSIONS = 3;

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

// A dgram.Socket's native UDP handle (null once closed), from the state
// Node keeps behind a symbol of its own; undefined where that is not found.
function dgramHandle(socket) {
  const symbol = Object.getOwnPropertySymbols(socket).find((s) => s.description === 'state symbol');
  const state = symbol === undefined ? undefined : socket[symbol];
  return state && typeof state === 'object' && 'handle' in state ? state.handle : undefined;
}

// Node's PipeConstants.IPC.
const PIPE_IPC = 2;

// The native handle libuv accepted with the last read that carried an fd
// (one handle is in flight at a time: the child waits for our ACK), or null.
function takePendingHandle(socket) {
  const native = socket._handle;
  const handle = native ? native.pendingHandle : undefined;
  if (!handle) return null;
  native.pendingHandle = null;
  return handle;
}

// A received native handle as the object the child sent, as Node converts
// it (its handleConversion[type].got); `emit` gets it once ready.
function receiveHandle(message, handle, emit) {
  switch (message.type) {
    case 'net.Server': {
      const server = new net.Server();
      server.listen(handle, () => emit(server));
      return;
    }
    case 'net.Socket':
      emit(new net.Socket({ handle, readable: true, writable: true }));
      return;
    case 'dgram.Socket': {
      const socket = new dgram.Socket(message.dgramType);
      socket.bind(handle, () => emit(socket));
      return;
    }
    default:
      // net.Native, dgram.Native: the handle itself.
      emit(handle);
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

// The sockets one child received from one of our servers (by the server's
// `_connectionKey`), as net.Server sees its workers: getConnections() and
// close() ask the child (NODE_SOCKET_GET_COUNT -> NODE_SOCKET_COUNT,
// NODE_SOCKET_NOTIFY_CLOSE -> NODE_SOCKET_ALL_CLOSED); 'exit' with the
// child's exit, when the server forgets it.
class SentSockets extends EventEmitter {
  constructor(child, key, send) {
    super();
    this.child = child;
    this.key = key;
    this.send = send;
    child.once('exit', () => this.emit('exit', this));
  }

  ask(cmd, answer, swallowErrors, callback) {
    const child = this.child;
    if (!child.connected) {
      callback(errors.childClosedBeforeReply());
      return;
    }
    const done = () => {
      child.removeListener('internalMessage', onAnswer);
      child.removeListener('disconnect', onDisconnect);
    };
    const onAnswer = (message) => {
      if (message.cmd !== answer || message.key !== this.key) return;
      done();
      callback(null, message);
    };
    const onDisconnect = () => {
      done();
      callback(errors.childClosedBeforeReply());
    };
    child.on('internalMessage', onAnswer);
    child.once('disconnect', onDisconnect);
    this.send({ cmd, key: this.key }, swallowErrors);
  }

  getConnections(callback) {
    this.ask('NODE_SOCKET_GET_COUNT', 'NODE_SOCKET_COUNT', false, (err, message) => {
      if (err) callback(err);
      else callback(null, message.count);
    });
  }

  close(callback) {
    this.ask('NODE_SOCKET_NOTIFY_CLOSE', 'NODE_SOCKET_ALL_CLOSED', true, callback);
  }
}

const CHANNEL_DEPRECATED = '_channel is deprecated. Use ChildProcess.channel instead.';
const getChannelDeprecated = deprecate(function getChannel() {
  return this.channel;
}, CHANNEL_DEPRECATED, 'DEP0129');
const setChannelDeprecated = deprecate(function setChannel(value) {
  this.channel = value;
}, CHANNEL_DEPRECATED, 'DEP0129');

// An HTTP server's connection sent away: its parser is freed and its
// response let go of it, as Node does, so that neither keeps the socket.
let httpCommon;
function releaseHttp(socket) {
  if (socket.parser) {
    if (httpCommon === undefined) {
      try {
        httpCommon = require('node:_http_common');
      } catch {
        httpCommon = null;
      }
    }
    if (httpCommon !== null && typeof httpCommon.freeParser === 'function') {
      httpCommon.freeParser(socket.parser, null, socket);
    }
  }
  const response = socket._httpMessage;
  if (response && typeof response.detachSocket === 'function') response.detachSocket(socket);
}

// Sets up child.send(), disconnect(), connected, channel and the
// 'message' / 'disconnect' events over the parent's end `fd`.
function setupChannel(child, fd, mode) {
  const { maybeClose, pipeHandleClass } = require('./child_process');
  // An IPC pipe handle, as Node's own channel is: libuv then reads with
  // recvmsg and turns an fd the child attached into the handle's
  // `pendingHandle` before the data is delivered. Without Node's Pipe
  // class (Deno) a plain socket, whose reads drop the fds.
  const Pipe = pipeHandleClass();
  let socket = null;
  if (Pipe !== null) {
    const pipe = new Pipe(PIPE_IPC);
    if (!pipe.open(fd)) socket = new net.Socket({ handle: pipe, readable: true, writable: true });
    else pipe.close();
  }
  const receivesHandles = socket !== null;
  if (socket === null) socket = new net.Socket({ fd, readable: true, writable: true });
  const codec = mode === 'advanced' ? new AdvancedCodec() : new JsonCodec();
  const channel = new Channel(socket);
  let warned = false;
  let closed = false;

  child.channel = channel;
  // Node's deprecated alias (DEP0129), on children with a channel only;
  // Node 26 removed it.
  if (errors.nodeMajor < 26) {
    Object.defineProperty(child, '_channel', {
      __proto__: null,
      configurable: true,
      get: getChannelDeprecated,
      set: setChannelDeprecated,
    });
  }
  child._ipc = socket;
  child.connected = true;

  // The child's exit, held until its channel's end is read. The kernel
  // closes a process's fds before it reports the exit, so the end is
  // readable by then; but the exit comes through the addon's event batch,
  // which the loop can run first (a batch already pending, a loop that was
  // busy), and Node's order, unless its own loop was held up, is
  // 'disconnect', then 'exit'. Held until the
  // 'end' (run after the 'disconnect' it schedules), or at most until the
  // next turn of the loop has polled (an end readable now is read then;
  // a channel a grandchild still holds never ends).
  let heldExit = null;
  const releaseExit = () => {
    const run = heldExit;
    heldExit = null;
    if (run !== null) run();
  };
  child._exitAfterChannel = (run) => {
    if (!child.connected || socket.readableEnded || socket.destroyed) return false;
    heldExit = run;
    setImmediate(() => setImmediate(releaseExit));
    return true;
  };

  const emitMessage = (event, message, handle) => {
    if (event === 'internalMessage' || child.listenerCount('message') > 0) child.emit(event, message, handle);
    else if (child.channel !== null) child.channel.pending.push([event, message, handle]);
  };

  child.on('newListener', (event) => {
    if (event !== 'message') return;
    process.nextTick(() => {
      const ch = child.channel;
      if (!ch || child.listenerCount('message') === 0 || ch.pending.length === 0) return;
      const pending = ch.pending;
      ch.pending = [];
      for (const [name, message, handle] of pending) child.emit(name, message, handle);
    });
  });

  // Data before the spawner thread's report proves the program runs:
  // 'spawn' is emitted first, as in Node. An end of stream proves nothing
  // (a failed spawn closes the child's end too): the report is waited for
  // (the spawn attempt is over by then), so that 'error' comes first.
  const messages = [];
  socket.on('data', (chunk) => {
    if (!child._known) child._admit(socket, chunk);
    codec.decode(chunk, messages);
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i];
      if (child.channel === null) break;
      if (isInternal(message)) {
        if (message.cmd === 'NODE_HANDLE_ACK' || message.cmd === 'NODE_HANDLE_NACK') {
          process.nextTick(onHandleAck, message.cmd === 'NODE_HANDLE_ACK');
        } else if (message.cmd === 'NODE_HANDLE') {
          const received = receivesHandles ? takePendingHandle(socket) : null;
          if (received !== null) {
            // As Node: acknowledged, converted, then emitted with the message.
            write({ cmd: 'NODE_HANDLE_ACK' }, null, true);
            receiveHandle(message, received, (handle) => {
              if (message.type === 'net.Socket' && message.key !== undefined) trackSocket(message.key, handle);
              if (child.channel === null) return;
              process.nextTick(emitMessage, isInternal(message.msg) ? 'internalMessage' : 'message', message.msg, handle);
            });
            continue;
          }
          // The fd that came with it is lost (see the file's header).
          write({ cmd: 'NODE_HANDLE_NACK' }, null, true);
          if (!warned) {
            warned = true;
            process.emitWarning(errors.ipcHandleUnsupported().message, 'FastspawnWarning');
          }
          continue;
        }
        if (message.cmd === 'NODE_SOCKET_NOTIFY_CLOSE' || message.cmd === 'NODE_SOCKET_GET_COUNT') answerSocketList(message);
        process.nextTick(emitMessage, 'internalMessage', message);
      } else {
        process.nextTick(emitMessage, 'message', message);
      }
    }
    messages.length = 0;
  });
  // Sockets received from a child's server (their message has the server's
  // key): the child's server.close() and getConnections() ask how many are
  // still open here (Node's socket lists), by key.
  const socketLists = new Map();
  const trackSocket = (key, socket) => {
    let list = socketLists.get(key);
    if (list === undefined) {
      list = { open: 0, notify: false };
      socketLists.set(key, list);
    }
    list.open++;
    socket.once('close', () => {
      list.open--;
      if (list.open === 0 && list.notify) {
        list.notify = false;
        if (child.connected) write({ cmd: 'NODE_SOCKET_ALL_CLOSED', key }, null, true);
      }
    });
  };
  const answerSocketList = (message) => {
    const list = socketLists.get(message.key);
    if (list === undefined || !child.connected) return;
    if (message.cmd === 'NODE_SOCKET_GET_COUNT') write({ cmd: 'NODE_SOCKET_COUNT', key: message.key, count: list.open }, null, true);
    else if (list.open === 0) write({ cmd: 'NODE_SOCKET_ALL_CLOSED', key: message.key }, null, true);
    else list.notify = true;
  };

  // The child closed its end (or exited): as Node, disconnect.
  socket.on('end', () => {
    if (!child._known) child._settleNow();
    handleQueue = null;
    if (child.connected) child.disconnect();
    else if (child.channel !== null) disconnectNow();
    socket.destroy();
    // After the 'disconnect' just scheduled.
    if (heldExit !== null) process.nextTick(releaseExit);
  });
  socket.on('error', () => {
    // Write errors go to send()'s callback or 'error'; a read error ends
    // the channel like an end of stream.
    handleQueue = null;
    if (child.connected) child.disconnect();
    if (heldExit !== null) process.nextTick(releaseExit);
  });
  socket.on('close', () => {
    if (heldExit !== null) process.nextTick(releaseExit);
    if (closed) return;
    closed = true;
    child.channel = null;
    child.connected = false;
    if (pendingHandle !== null) closeHandle(pendingHandle.handle);
    pendingHandle = null;
    if (!child._noStdio) maybeClose(child);
  });

  const failed = (err, callback, swallowErrors) => {
    if (swallowErrors) return;
    const ex = errors.errnoError(typeof err.errno === 'number' ? err.errno : -32, 'write');
    if (typeof callback === 'function') callback(ex);
    else child.emit('error', ex);
  };

  // Writes one message; errors go to `callback` or the child's 'error'
  // unless swallowed.
  function write(message, callback, swallowErrors) {
    socket.write(codec.encode(message), (err) => {
      if (err) failed(err, callback, swallowErrors);
      else if (typeof callback === 'function') callback(null);
    });
    return socket.writableLength < WRITE_QUEUE_LIMIT;
  }

  // Writes one message with a handle's fd attached (SCM_RIGHTS, sent with
  // its first bytes), once what the socket has queued is written: libuv
  // cannot attach an fd to a net.Socket's write, so the addon writes it.
  function writeWithFd(bytes, fd, callback, swallowErrors) {
    if (socket.destroyed) {
      failed({ errno: -32 }, callback, swallowErrors);
      return;
    }
    if (socket.writableLength > 0 || !socket._handle) {
      setImmediate(writeWithFd, bytes, fd, callback, swallowErrors);
      return;
    }
    const sent = addon.sendWithFd(socket._handle.fd, bytes, fd);
    if (sent === -EAGAIN) {
      setTimeout(writeWithFd, 1, bytes, fd, callback, swallowErrors);
    } else if (sent < 0) {
      failed({ errno: sent }, callback, swallowErrors);
    } else if (sent < bytes.length) {
      socket.write(bytes.subarray(sent), (err) => {
        if (err) failed(err, callback, swallowErrors);
        else if (typeof callback === 'function') callback(null);
      });
    } else if (typeof callback === 'function') {
      process.nextTick(callback, null);
    }
  }

  // Handles, as Node sends them: one at a time; until the child
  // acknowledges one (NODE_HANDLE_ACK), later messages wait in
  // `handleQueue` (null when nothing waits for an ACK). A socket sent
  // without keepOpen is closed here once the child has it.
  let handleQueue = null;
  let pendingHandle = null;

  function closeHandle(handle) {
    if (handle && typeof handle.close === 'function') handle.close();
  }

  function onHandleAck(acked) {
    if (pendingHandle !== null) {
      if (acked) {
        closeHandle(pendingHandle.handle);
        pendingHandle = null;
      } else if (pendingHandle.retransmissions++ === MAX_HANDLE_RETRANSMISSIONS) {
        closeHandle(pendingHandle.handle);
        pendingHandle = null;
        process.emitWarning('Handle did not reach the receiving process correctly', 'SentHandleNotReceivedWarning');
      }
    }
    const queue = handleQueue || [];
    handleQueue = null;
    if (pendingHandle !== null) {
      const p = pendingHandle;
      sendNow(p.message, p.handle, p.options, p.callback);
    }
    for (const q of queue) sendNow(q.message, q.handle, q.options, q.callback);
    if (!child.connected && child.channel !== null && handleQueue === null) disconnectNow();
  }

  function sendNow(message, handle, options, callback) {
    const swallowErrors = !!options.swallowErrors;
    if (handle) {
      let type;
      if (handle instanceof net.Socket) type = 'net.Socket';
      else if (handle instanceof net.Server) type = 'net.Server';
      else if (typeof handle.fd === 'number' && typeof handle.readStop === 'function') type = 'net.Native';
      else if (handle instanceof dgram.Socket) type = 'dgram.Socket';
      else if (typeof handle.fd === 'number' && typeof handle.recvStart === 'function') type = 'dgram.Native';
      else throw errors.invalidHandleType();
      if (handleQueue !== null) {
        handleQueue.push({ message, handle, options, callback });
        return handleQueue.length === 1;
      }
      let native = null;
      let detached = false;
      let key;
      if (type === 'net.Socket') {
        native = handle._handle || null;
        if (native !== null && handle.server) {
          // A connection of one of our servers: the child keeps a list of
          // them under the server's key, which the server asks through
          // SentSockets for getConnections() and close(); not counted here
          // any more unless kept open (Node's socket lists).
          key = handle.server._connectionKey;
          sentSocketsOf(handle.server, key);
          if (!options.keepOpen) handle.server._connections--;
        }
        if (native !== null && !options.keepOpen) {
          // The socket is the child's now: detached here, closed on the ACK.
          native.onread = () => {};
          handle._handle = null;
          handle.setTimeout(0);
          releaseHttp(handle);
          detached = true;
        }
      } else if (type === 'net.Server') {
        native = handle._handle || null;
      } else if (type === 'dgram.Socket') {
        // Its UDP handle, in the socket's state (Node's kStateSymbol); the
        // parent keeps the socket, as with Node.
        native = dgramHandle(handle);
        if (native === undefined) throw errors.ipcHandleUnsupported();
      } else {
        native = handle;
      }
      if (native === null || typeof native.fd !== 'number' || native.fd < 0) {
        // Nothing to send (a closed socket, a server not listening): the
        // message alone, as Node does.
        return write(message, callback, swallowErrors);
      }
      handleQueue = [];
      if (detached) pendingHandle = { message, handle: native, options, callback, retransmissions: 0 };
      const wrapper = { cmd: 'NODE_HANDLE', type, msg: message };
      if (key !== undefined) wrapper.key = key;
      if (type === 'dgram.Socket') wrapper.dgramType = handle.type;
      writeWithFd(Buffer.from(codec.encode(wrapper)), native.fd, callback, swallowErrors);
      return true;
    }
    if (handleQueue !== null && !(message && (message.cmd === 'NODE_HANDLE_ACK' || message.cmd === 'NODE_HANDLE_NACK'))) {
      handleQueue.push({ message, handle: null, options, callback });
      return handleQueue.length === 1;
    }
    return write(message, callback, swallowErrors);
  }

  // The lists of the sockets sent from each of our servers, by key: made
  // at the first such socket and handed to the server (`_setupWorker`),
  // whose getConnections() and close() then ask the child too.
  const sentLists = new Map();
  function sentSocketsOf(server, key) {
    if (sentLists.has(key)) return;
    const list = new SentSockets(child, key, (message, swallowErrors) => {
      sendNow(message, null, { swallowErrors }, undefined);
    });
    sentLists.set(key, list);
    if (typeof server._setupWorker === 'function') server._setupWorker(list);
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
    options = { swallowErrors: false, ...options };
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
    return sendNow(message, handle, options, callback);
  };

  // The channel's end: no more messages are delivered; what was sent is
  // still written out.
  function disconnectNow() {
    child.channel = null;
    process.nextTick(() => {
      if (socket.destroyed || socket.writableFinished) socket.destroy();
      else socket.end(() => socket.destroy());
      child.emit('disconnect');
    });
  }

  child.disconnect = function disconnect() {
    if (!this.connected) {
      this.emit('error', errors.ipcDisconnected());
      return;
    }
    this.connected = false;
    // A handle still waiting for its ACK (and what queued behind it) goes
    // first, as in Node.
    if (handleQueue === null) disconnectNow();
  };
}

module.exports = { setupChannel, AdvancedCodec, JsonCodec };
