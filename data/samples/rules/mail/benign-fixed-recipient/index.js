// Look-alike: a contact form sends to the address the site configured, with the visitor in cc.
const nodemailer = require('nodemailer');
module.exports = (cfg) => {
  const t = nodemailer.createTransport(cfg.smtp);
  return (form) => t.sendMail({ from: cfg.from, to: cfg.inbox, cc: form.email, subject: form.subject, text: form.message });
};
