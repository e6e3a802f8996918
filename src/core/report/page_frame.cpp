#include "report/page_frame.hpp"

#include "report/html_text.hpp"
#include "zanj/version.hpp"

namespace zanj::report {
namespace {

constexpr std::string_view kStyle = R"css(
:root{--fg:#1a1a1a;--bg:#fff;--muted:#555;--line:#d0d0d0;--bar:#2f6db5;--total:#b9cde6;--part:#2f6db5;
--ok:#1f7a33;--bad:#b3261e;--warn:#8a5a00;--code:#f3f3f3}
@media (prefers-color-scheme:dark){:root{--fg:#e8e8e8;--bg:#161616;--muted:#b0b0b0;--line:#444;
--bar:#7fb0ef;--total:#34506f;--part:#7fb0ef;--ok:#6fd08a;--bad:#ff8a80;--warn:#f0c060;--code:#262626}}
body{font:15px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1100px;padding:0 1em 3em}
h1{font-size:1.5em;word-break:break-all}h2{border-bottom:1px solid var(--line);padding-bottom:.2em;margin-top:1.6em}
code,.p{font-family:ui-monospace,monospace;background:var(--code);padding:0 .2em;word-break:break-all}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}dt{color:var(--muted)}dd{margin:0}
table{border-collapse:collapse}td,th{border:1px solid var(--line);padding:.1em .5em;text-align:right}th{text-align:left}
.ok{color:var(--ok);font-weight:bold}.bad{color:var(--bad);font-weight:bold}.warn{color:var(--warn)}
.flag{color:var(--bad);font-weight:bold;margin-left:.4em}.note{color:var(--muted);font-style:italic;margin-left:.4em}
.facts td{text-align:left}.facts th{color:var(--muted);font-weight:normal;vertical-align:top}
.tree,.tree ul{list-style:none;padding-left:1.1em;margin:0}.tree{padding-left:0}
.tree li{margin:.1em 0}.k,.s{color:var(--muted)}.v{word-break:break-all}
.arr,.figs{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}.arr,.one{margin:.3em 0 .6em 1.2em}
.figs{margin-top:.5em}
figure{margin:0}figcaption{color:var(--muted);font-size:.85em}
svg .bar{fill:var(--bar)}svg .total{fill:var(--total)}svg .part{fill:var(--part)}
svg text{fill:var(--fg);font:11px system-ui,sans-serif}svg .axis,svg .sub text{fill:var(--muted)}
#q{font:inherit;padding:.3em;width:22em;max-width:100%}summary,.x{cursor:pointer}
.js .large ul ul li:not(.o)>ul,.js .large li.s>ul{display:none}.js .large .x::before{content:"\25BE  "}
.js .large ul ul li:not(.o)>.x::before,.js .large li.s>.x::before{content:"\25B8  "}
)css";

// A large tree (class "large": plain nested lists) is folded below its second level by the
// class "js" on the document (CSS does the rest, so without the script nothing is folded); a name then opens (class
// "o") or shuts ("s") its list. The search box filters by path (keys joined by '/', built from the names the first
// time, so the page holds no copy of every path); ancestors of a match stay shown and open.
constexpr std::string_view kScript = R"js(
document.documentElement.classList.add('js');
document.addEventListener('DOMContentLoaded',function(){var t=document.querySelector('.tree');if(!t)return;
var it=t.querySelectorAll('li'),q=document.getElementById('q'),c=document.getElementById('qn'),h;
if(t.classList.contains('large')){
function flip(e){var b=e.target;if(!b.classList||!b.classList.contains('x'))return;
if(e.type==='keydown'&&e.key!=='Enter'&&e.key!==' ')return;e.preventDefault();var li=b.parentElement,u=li.querySelector(':scope>ul');
var shown=u&&u.offsetParent!==null;li.classList.toggle('o',!shown);li.classList.toggle('s',shown);}
t.addEventListener('click',flip);t.addEventListener('keydown',flip);}
function paths(){for(var i=0;i<it.length;i++){var li=it[i],b=li.querySelector(':scope>b,:scope>details>summary>b'),
p=li.parentElement.closest('li');li.p=p?(p.p?p.p+'/':'')+(b?b.textContent:''):'';li.lp=li.p.toLowerCase();}}
if(!q)return;q.parentElement.hidden=false;
q.addEventListener('input',function(){clearTimeout(h);h=setTimeout(run,150);});
function run(){if(it.length&&it[0].lp===undefined)paths();var s=q.value.toLowerCase(),n=0,i;
for(i=0;i<it.length;i++)it[i].k=false;
for(i=it.length-1;i>=0;i--){var li=it[i],own=!s||li.lp.indexOf(s)>=0,show=own||li.k;
li.hidden=!show;if(s&&own)n++;if(show){var p=li.parentElement.closest('li');if(p)p.k=true;}
if(s&&li.k){var d=li.querySelector(':scope>details');if(d)d.open=true;li.classList.add('o');li.classList.remove('s');}}
c.textContent=s?n+' matching':'';}});
)js";

}  // namespace

void open_page(std::string& out, std::string_view title, std::string_view heading) {
  out +=
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
      "<meta name=\"color-scheme\" content=\"light dark\"><meta name=\"generator\" content=\"zanj ";
  out += ZANJ_VERSION_STRING;
  out += "\"><title>";
  append_escaped(out, title);
  out += "</title><style>";
  out += kStyle;
  // The script runs first (it only marks the page and waits for the document), so a large
  // tree is folded before it is ever laid out.
  out += "</style><script>";
  out += kScript;
  out += "</script></head>\n<body><header><h1>";
  append_escaped(out, heading);
  out += "</h1></header>\n";
}

void tree_search_box(std::string& out) {
  out +=
      "<p hidden><label for=\"q\">Filter paths </label><input id=\"q\" type=\"search\" "
      "placeholder=\"part of a path\" autocomplete=\"off\"> <span id=\"qn\" aria-live=\"polite\"></span></p>\n";
}

void close_page(std::string& out) {
  out += "<footer><p class=\"k\">Written by zanj ";
  out += ZANJ_VERSION_STRING;
  out += ". This page loads nothing from the network.</p></footer>\n</body></html>\n";
}

}  // namespace zanj::report
