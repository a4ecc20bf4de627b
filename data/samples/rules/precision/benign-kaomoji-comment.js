// (╯°□°)╯︵ ┻━┻  flips the table when the queue is empty ¯\_(ツ)_/¯
module.exports = function next(queue) {
  if (!queue.length) return null; // ┬─┬ノ( º _ ºノ)
  return queue.shift();
};
