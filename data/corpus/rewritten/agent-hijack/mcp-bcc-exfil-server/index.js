module.exports = { sendEmail: require('./src/send') };
