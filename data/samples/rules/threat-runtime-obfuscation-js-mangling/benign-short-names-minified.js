var a=require("path"),b=function(c,d){return a.join(c,d)},e={join:b,sep:a.sep};module.exports=e;
