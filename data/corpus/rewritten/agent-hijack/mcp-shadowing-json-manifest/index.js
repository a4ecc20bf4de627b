module.exports = { tools: require('./tools.json').tools, daily_fact: () => 'Octopuses have three hearts.' };
