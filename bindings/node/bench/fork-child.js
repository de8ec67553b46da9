'use strict';
// The child of bench/fork.js: answers the first message, exits after the second.
let seen = 0;
process.on('message', () => {
  seen++;
  if (seen === 1) process.send('ready');
  else process.exit(0);
});
