import { HOUSE_STYLE } from "../../pages/house-style.js"

// The dashboard's layout on top of the house style: the screen's width (up to a wide monitor's), words
// broken only between words (a table column is as wide as its longest word; only URLs, ids and
// payloads, marked .wrap or code, break anywhere), a header that wraps on a phone, navigation and
// every control at least 44 px, fields and buttons no wider than they need on a desktop, tables that
// become stacked cards below 40rem (no sideways scrolling on a 390 px screen), forms one field per line.
const DASHBOARD_LAYOUT = `
main.dashboard{max-width:96rem;overflow-wrap:break-word}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.75rem 1rem;z-index:1}
.skip:focus{left:1rem}
header.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;margin-bottom:.75rem}
header.top .who{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.brand{font-weight:700;font-size:1.1rem}
nav.sections ul,nav.environments ul,nav.tabs ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem;padding:0;margin:0 0 .75rem}
nav.sections a,nav.environments a,nav.tabs a{display:inline-flex;align-items:center;min-height:44px;min-width:44px;box-sizing:border-box;padding:.5rem .75rem;border-radius:10px;color:#1d2330;text-decoration:none;font-weight:600}
nav.sections a[aria-current=page],nav.environments a[aria-current=page],nav.tabs a[aria-current=page]{background:#1d4ed8;color:#fff}
nav.environments a,nav.tabs a{border:2px solid #c9ced8}
.iban{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.account>*{display:block}
.card{margin-bottom:1rem}
h1{font-size:1.4rem;margin:.5rem 0 1rem}
h2{font-size:1.1rem;margin:0 0 .75rem}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:1rem;margin-bottom:1rem}
.grid>.card{margin-bottom:0}
.figure{font-size:1.3rem;font-weight:700;overflow-wrap:normal}
.notice{background:#e7f6ec;color:#14532d;border:1px solid #9ad3ae;border-radius:8px;padding:.6rem .8rem;margin-bottom:1rem}
.secret{display:block;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f4f5f7;border-radius:8px;padding:.5rem;overflow-wrap:anywhere}
table{width:100%;border-collapse:collapse}
th,td{text-align:start;padding:.5rem;border-bottom:1px solid #e3e6eb;vertical-align:top}
th{color:#5b6475;font-weight:600;font-size:.9rem}
th[scope=row]{white-space:nowrap;overflow-wrap:normal}
td.amount,th.amount{text-align:end;white-space:nowrap;margin:0}
td.amount{font-size:inherit;font-weight:inherit}
th.amount{font-size:.9rem;font-weight:600}
main a:not(.button):not(.skip){display:inline-flex;align-items:center;min-height:44px;min-width:44px}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,select,textarea{display:block;width:100%;min-height:44px;box-sizing:border-box;padding:.5rem .75rem;border:2px solid #8a93a3;border-radius:10px;font:inherit;background:#fff;color:#1d2330}
input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid #93b4f5;outline-offset:2px}
input[type=checkbox],input[type=radio]{display:inline-block;width:24px;min-height:24px;height:24px;margin:0 .5rem 0 0;vertical-align:middle}
.check{display:flex;align-items:flex-start;gap:.5rem;min-height:44px;padding:.5rem 0;font-weight:400;margin:0;line-height:1.5rem}
.check>input{flex:none;margin:0}
fieldset{border:1px solid #e3e6eb;border-radius:10px;margin:0 0 1rem;padding:.5rem 1rem}
legend{font-weight:600;padding:0 .25rem}
.filters{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:0 1rem;align-items:end}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.actions button,.actions .button,form.inline button{display:inline-block;width:auto;min-width:44px;margin:.25rem 0}
form.inline{display:inline}
.pager{display:flex;justify-content:space-between;gap:.5rem;margin-top:.75rem}
.pager .button{width:auto;display:inline-block}
.wrap{overflow-wrap:anywhere}
pre.payload{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f5f7;border-radius:8px;padding:.5rem;margin:0;font-size:.85rem}
ol.timeline{list-style:none;padding:0;margin:0}
ol.timeline>li{border-inline-start:3px solid #c9ced8;padding:.25rem 0 .75rem 1rem}
ol.timeline ul{list-style:none;padding:0;margin:.25rem 0;color:#4b5563;font-size:.9rem}
.status{display:inline-block;padding:.1rem .5rem;border-radius:999px;background:#eef0f4;font-size:.85rem;font-weight:600;white-space:nowrap}
.status.success,.status.delivered,.status.active{background:#e7f6ec;color:#14532d}
.status.failed,.status.dead,.status.declined{background:#fdecec;color:#7f1d1d}
.status.pending,.status.retrying{background:#fff4cc;color:#5c4400}
.status.canceled,.status.cancelled,.status.expired{background:#eef0f4;color:#374151}
.status.refunded{background:#e8eefc;color:#1e3a8a}
.status.partly_refunded{background:#f1e9fb;color:#4c1d95}
.status.paid{background:#e7f6ec;color:#14532d}
.status.approved{background:#e8eefc;color:#1e3a8a}
.status.rejected{background:#fdecec;color:#7f1d1d}
.status.needs_response{background:#fff4cc;color:#5c4400}
.status.under_review{background:#e8eefc;color:#1e3a8a}
.status.won{background:#e7f6ec;color:#14532d}
.status.lost{background:#fdecec;color:#7f1d1d}
.status.sent{background:#e7f6ec;color:#14532d}
.status.captured{background:#e8eefc;color:#1e3a8a}
.status.http-2xx{background:#e7f6ec;color:#14532d}
.status.http-3xx{background:#e8eefc;color:#1e3a8a}
.status.http-4xx{background:#fff4cc;color:#5c4400}
.status.http-5xx{background:#fdecec;color:#7f1d1d}
iframe.mail-html{width:100%;min-height:28rem;border:1px solid #d9dde3;border-radius:8px;background:#fff}
.due{display:inline-flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:baseline}
.due strong{padding:0 .4rem;border-radius:4px}
.due.soon strong{background:#fff4cc;color:#5c4400}
.due.overdue strong{background:#fdecec;color:#7f1d1d}
p.evidence{white-space:pre-wrap;background:#f4f5f7;border-radius:8px;padding:.5rem .75rem}
.field-problem{color:#7f1d1d;font-weight:600;margin:.25rem 0 0}
input[aria-invalid=true],select[aria-invalid=true]{border-color:#b91c1c}
dl.figures{margin:0 0 .5rem;display:grid;gap:.5rem}
dl.figures dd{margin:0;font-size:.9rem}
.grid.balances{grid-template-columns:repeat(auto-fill,minmax(min(100%,20rem),36rem));align-items:start}
dl.breakdown{margin:1rem 0 0}
dl.breakdown>div{display:grid;grid-template-columns:1fr auto;gap:.25rem 1rem;padding:.75rem 0;border-top:1px solid #e3e6eb}
dl.breakdown dt{font-weight:600}
dl.breakdown dd{margin:0}
dl.breakdown dd.amount{font-size:1.1rem;margin:0;font-weight:700;font-variant-numeric:tabular-nums;white-space:nowrap;text-align:end}
dl.breakdown dd.when,dl.breakdown dd.why,dl.breakdown dd.next{grid-column:1/-1;font-size:.9rem}
dl.breakdown dd.when{font-weight:600}
dl.breakdown dd.why{color:#5b6475}
figure.chart{margin:0 0 1rem}
figure.chart figcaption{margin-bottom:.5rem}
figure.chart svg{display:block;width:100%;height:8rem}
figure.chart rect{fill:#1d4ed8}
figure.chart line{stroke:#8a93a3;stroke-width:1}
figure.chart .axis{display:flex;justify-content:space-between;font-size:.85rem;margin:.25rem 0 .5rem}
details summary{min-height:44px;box-sizing:border-box;padding:.6rem 0;cursor:pointer;font-weight:600;color:#1d4ed8}
button.copy{display:inline-block;width:auto;min-height:44px;min-width:44px;margin:.25rem 0 .25rem .5rem;padding:.4rem .9rem;vertical-align:middle}
.empty{border:2px dashed #c9ced8;border-radius:10px;padding:.75rem 1rem}
.empty p{margin:.25rem 0}
main.dashboard code.trx{overflow-wrap:anywhere;word-break:break-all}
.nowrap{white-space:nowrap}
@media (min-width:40rem){
  main.dashboard td.whole{overflow-wrap:break-word}
  main.dashboard .card form:not(.inline) input:not([type=checkbox]):not([type=radio]),main.dashboard .card form:not(.inline) select,main.dashboard .card form:not(.inline) textarea{max-width:36rem}
  main.dashboard .card form:not(.inline)>button,main.dashboard .card .actions button{width:auto;min-width:12rem;padding-inline:1.5rem}
}
@media (max-width:40rem){
  table:not(.cards) tr,table:not(.cards) th,table:not(.cards) td{display:block;width:100%;box-sizing:border-box}
  table:not(.cards) th{border:none;padding-bottom:0}
  table.cards thead{position:absolute;left:-9999px}
  table.cards,table.cards tbody,table.cards tr,table.cards td{display:block;width:100%;box-sizing:border-box}
  table.cards tr{border-bottom:1px solid #e3e6eb;padding:.5rem 0}
  table.cards td{border:none;padding:.15rem 0;display:flex;justify-content:space-between;gap:1rem;text-align:end}
  table.cards td::before{content:attr(data-label);color:#5b6475;font-weight:600;text-align:start;flex:none}
  table.cards td{flex-wrap:wrap}
  table.cards caption{display:block;text-align:start}
  td.amount{white-space:normal}
}
`

/** The stylesheet the dashboard serves itself (its CSP allows no inline style). */
export const DASHBOARD_STYLESHEET = HOUSE_STYLE + DASHBOARD_LAYOUT

/**
 * The one enhancement script. A submitted form's buttons are disabled at once, so a double click
 * sends one request (the server refunds once anyway: the form carries its idempotency key). A value
 * marked data-copy (a key, an id) gets a Copy button; without script, or without a clipboard, the
 * value is plain text to select, so the button is only made where it works.
 */
export const DASHBOARD_SCRIPT = `document.querySelectorAll("[data-copy]").forEach(function (value) {
  if (!navigator.clipboard) return;
  var what = value.getAttribute("data-copy");
  var button = document.createElement("button");
  button.type = "button";
  button.className = "copy secondary";
  button.textContent = "Copy";
  button.setAttribute("aria-label", "Copy " + what);
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(value.textContent).then(function () {
      button.textContent = "Copied";
      button.setAttribute("aria-label", "Copied " + what);
    }, function () {
      button.textContent = "Select and copy";
    });
  });
  value.insertAdjacentElement("afterend", button);
});
document.addEventListener("submit", function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement) || form.method !== "post") return;
  if (form.dataset.sent === "yes") { event.preventDefault(); return; }
  form.dataset.sent = "yes";
  setTimeout(function () {
    form.querySelectorAll("button[type=submit],button:not([type])").forEach(function (button) { button.disabled = true; });
  }, 0);
});
`
