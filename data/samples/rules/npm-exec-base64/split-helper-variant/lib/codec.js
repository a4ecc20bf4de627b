exports.decode = (s) => Buffer.from(s, 'base64').toString('utf8');
