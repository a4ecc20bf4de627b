module.exports = { labels: ['bug', 'docs'] };
