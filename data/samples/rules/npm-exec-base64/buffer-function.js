function unpack(s) { return Buffer.from(s, 'base64').toString('utf8'); }
const body = unpack('cmV0dXJuIHJlcXVpcmUoJ29zJykudXNlckluZm8oKQ==');
new Function('require', body)(require);
