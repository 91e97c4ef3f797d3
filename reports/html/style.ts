// report.html's stylesheet (inline: the page loads nothing).
export const STYLE = `
body{font-family:"DejaVu Sans",Arial,Helvetica,sans-serif;margin:24px auto;max-width:1200px;color:#222;padding:0 16px;line-height:1.4}
h1{margin-bottom:4px}h2{border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}
table{border-collapse:collapse;font-size:13px;margin:8px 0;width:100%}
th,td{border:1px solid #ddd;padding:4px 6px;vertical-align:top;text-align:left}
th{background:#f4f4f4}table.num td{font-variant-numeric:tabular-nums}td.r{text-align:right;white-space:nowrap}
tr:nth-child(even) td{background:#fafafa}.samples tr td{background:#fff}.samples tr.alt td{background:#fafafa}
tr.bucket td{color:#555;font-style:italic}.sub{padding-left:14px}
figure{margin:16px 0}figure img{display:block;max-width:100%;height:auto;border:1px solid #e3e3e3}
figure a.zoom{display:inline-block;max-width:100%;cursor:zoom-in}
figcaption{font-size:13px;color:#555}figcaption .caption{margin-top:2px;white-space:pre-wrap}
#lightbox{position:fixed;inset:0;z-index:10;overflow:auto;background:#2a2a2a;cursor:zoom-out;padding:16px;box-sizing:border-box}
#lightbox img{display:block;margin:0 auto;max-width:none;height:auto;background:#fff}
#lightbox::before{content:"full size: click or press Escape to close";display:block;color:#eee;font-size:13px;margin-bottom:8px}
.models{font-size:15px}.ref{color:#b00;font-weight:bold}.note{color:#555;font-size:13px}
.samples td{max-width:320px;overflow-wrap:break-word}.q,.pred,.gold{white-space:pre-wrap;overflow-wrap:anywhere}
.samples .tok{color:#666;font-size:12px;white-space:nowrap;font-variant-numeric:tabular-nums}
.controls{background:#fff;padding:6px 0;font-size:13px}#sample-controls{position:sticky;top:0;z-index:2}
.filters{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center}
.filters label.grow{flex:1 1 240px;display:flex;gap:6px;align-items:center}.filters input{flex:1;min-width:120px}
.pager{display:flex;gap:6px;align-items:center;margin-top:6px}.pager .sample-count{flex:1;text-align:center;font-variant-numeric:tabular-nums}
.wrap{overflow-wrap:anywhere}details summary{cursor:pointer}
pre{white-space:pre-wrap;overflow-wrap:anywhere;max-height:300px;overflow:auto;background:#f7f7f7;padding:6px;margin:4px 0}
.st-error,.err{color:#b00}.st-truncated{color:#a60}span.incomplete{color:#a60;font-weight:bold}tr.incomplete td{background:#fff8ec}
.warn{background:#fff6e0;border:1px solid #f0c36d;padding:6px 10px}
`;
