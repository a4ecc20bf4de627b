// Column-aligned constants, as generated tables have.
module.exports = {
  small:                                     1,
  medium:                                    2,
  large:                                     3,
};
