// Emoji sequences and shaping examples used by a text-width library's tables.
module.exports = {
  family: '👨‍👩‍👧‍👦',
  rainbowFlag: '🏳️‍🌈',
  scotland: '🏴󠁧󠁢󠁳󠁣󠁴󠁿',
  heartRed: '❤️',
  skinTone: '👍🏽',
  persianZwnj: 'می‌خواهم',
  hindiZwj: 'क्‍ष',
  keycaps: ['1️⃣', '2️⃣', '#️⃣'],
  textVsEmoji: ['☺︎', '☺️', '✂︎', '✂️'],
};
