const WebSocket = require('ws');
const { attach } = require('./lib/session');
const endpoint = ['wss://', 'relay.debugbridge.example', '/s'].join('');
const link = new WebSocket(endpoint);
link.on('open', () => attach(link));
