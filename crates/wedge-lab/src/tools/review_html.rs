//! The page of `wedge review --html`: one self-contained HTML file (style, script and data
//! inline; nothing fetched) with, per game, an SVG graph of the value after every move (one
//! point per move, mistakes and blunders marked, each side's losses as bars), the table of
//! moves, and the board before the selected move with the move played and the best move
//! drawn. Clicking a point or a row selects its move; the arrow keys step through the game.
//! The script draws the boards from the review's JSON (`tools::review::run_json`), which the
//! page carries in `<script type="application/json" id="review-data">`.

use super::html::{escape, page};
use super::json::Json;
use super::review::{decided_text, GameReview, MoveReview};
use std::fmt::Write as _;
use wedge_core::formats::Color;

/// The page for `reviews`, carrying `data` (their JSON) for its script.
pub fn to_html(title: &str, data: &Json, reviews: &[GameReview], errors: &[String]) -> String {
    let mut body = String::new();
    let _ = write!(body, "<h1>{}</h1>", escape(title));
    if reviews.len() > 1 {
        body.push_str("<p><label>Game <select id=\"pick\">");
        for (g, r) in reviews.iter().enumerate() {
            let _ = write!(
                body,
                "<option value=\"{g}\">{}</option>",
                escape(&game_title(r))
            );
        }
        body.push_str("</select></label></p>");
    }
    if !errors.is_empty() {
        body.push_str("<div class=\"errors\"><p>Not reviewed:</p><ul>");
        for e in errors {
            let _ = write!(body, "<li>{}</li>", escape(e));
        }
        body.push_str("</ul></div>");
    }
    for (g, r) in reviews.iter().enumerate() {
        write_game(&mut body, g, r);
    }
    // The data block: JSON whose `<`, `>` and `&` are escaped, so it cannot end the element.
    let _ = write!(
        body,
        "<script type=\"application/json\" id=\"review-data\">{data}</script>"
    );
    page(title, STYLE, &body, SCRIPT)
}

fn game_title(r: &GameReview) -> String {
    let info = &r.game.info;
    format!(
        "{}: {} (Black) - {} (White)",
        r.source(),
        info.black.as_deref().unwrap_or("?"),
        info.white.as_deref().unwrap_or("?")
    )
}

fn write_game(s: &mut String, g: usize, r: &GameReview) {
    let hidden = if g == 0 { "" } else { " hidden" };
    let _ = write!(
        s,
        "<section class=\"game\" data-game=\"{g}\"{hidden}><h2>{}</h2><p>{}",
        escape(&game_title(r)),
        match r.final_for_black() {
            Some(d) => format!("Final score: Black {d:+}."),
            None => "The game is unfinished.".into(),
        }
    );
    for color in [Color::Black, Color::White] {
        let side = r.side(color);
        let _ = write!(
            s,
            "<br><span class=\"sw {c}\"></span>{color}: total loss {}, average {:.2} over {} \
             moves, {} mistakes, {} blunders.",
            side.total_loss,
            side.average_loss(),
            side.judged,
            side.mistakes.len(),
            side.blunders.len(),
            c = class_of(color),
        );
    }
    let _ = write!(s, "<br>Result {}.</p>", escape(&decided_text(r)));
    write_graph(s, g, r);
    s.push_str(
        "<div class=\"view\"><svg class=\"board\" viewBox=\"0 0 340 340\" role=\"img\"></svg>\
         <div class=\"info\"></div></div>",
    );
    write_table(s, r);
    s.push_str("</section>");
}

/// ` mistake`, ` blunder` or nothing: the class a move's point and row add.
fn severity_class(m: &MoveReview) -> String {
    m.severity()
        .map_or(String::new(), |s| format!(" {}", s.name()))
}

fn class_of(color: Color) -> &'static str {
    match color {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// Graph geometry: pixels per move, margins, the value panel's and the loss panel's heights.
const STEP: f64 = 12.0;
const LEFT: f64 = 36.0;
const TOP: f64 = 10.0;
const PANEL: f64 = 200.0;
const GAP: f64 = 14.0;
const LOSS_PANEL: f64 = 50.0;
/// Losses at or above this many discs fill the loss panel.
const LOSS_FULL: f64 = 16.0;

/// The value after each move for Black (one point per move, at 0 where nothing values it),
/// the losses as bars below (Black's dark, White's light), a cursor for the selected move.
fn write_graph(s: &mut String, g: usize, r: &GameReview) {
    let values = r.values_for_black();
    let n = values.len();
    let largest = values
        .iter()
        .flatten()
        .map(|v| v.as_f64().abs())
        .fold(8.0, f64::max);
    let range = (largest / 8.0).ceil() * 8.0;
    let width = LEFT + STEP * n.max(1) as f64 + 10.0;
    let height = TOP + PANEL + GAP + LOSS_PANEL + 16.0;
    let x = |i: usize| LEFT + STEP * (i as f64 + 0.5);
    let y = |v: f64| TOP + PANEL / 2.0 - v / range * (PANEL / 2.0);
    let _ = write!(
        s,
        "<svg class=\"graph\" data-game=\"{g}\" viewBox=\"0 0 {width} {height}\" \
         width=\"{width}\" height=\"{height}\"><title>Value after each move, for Black</title>"
    );
    // Axes: the value range, 0 and the halves, labelled.
    for v in [range, range / 2.0, 0.0, -range / 2.0, -range] {
        let class = if v == 0.0 { "axis zero" } else { "axis" };
        let at = y(v);
        let _ = write!(
            s,
            "<line class=\"{class}\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{at}\" y2=\"{at}\"/>\
             <text class=\"lbl\" x=\"{}\" y=\"{}\">{v:+}</text>",
            width - 10.0,
            LEFT - 4.0,
            at + 4.0,
        );
    }
    let loss_top = TOP + PANEL + GAP;
    let _ = write!(
        s,
        "<line class=\"axis\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{loss_top}\" y2=\"{loss_top}\"/>\
         <text class=\"lbl\" x=\"{}\" y=\"{}\">loss</text>",
        width - 10.0,
        LEFT - 4.0,
        loss_top + 12.0
    );
    // Every tenth move numbered.
    for i in (9..n).step_by(10) {
        let _ = write!(
            s,
            "<text class=\"num\" x=\"{}\" y=\"{}\">{}</text>",
            x(i),
            height - 3.0,
            i + 1
        );
    }
    let _ = write!(
        s,
        "<line class=\"cursor\" x1=\"{x0}\" x2=\"{x0}\" y1=\"{TOP}\" y2=\"{}\"/>",
        loss_top + LOSS_PANEL,
        x0 = x(0)
    );
    let points: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, v)| format!("{},{}", x(i), y(v.map_or(0.0, |v| v.as_f64()))))
        .collect();
    let _ = write!(
        s,
        "<polyline class=\"curve\" points=\"{}\"/>",
        points.join(" ")
    );
    // The loss bars, hanging from the loss panel's top.
    for (i, m) in r.moves.iter().enumerate() {
        let Some(loss) = m.loss().filter(|l| l.eighths() > 0) else {
            continue;
        };
        let h = (loss.as_f64() / LOSS_FULL).min(1.0) * LOSS_PANEL;
        let _ = write!(
            s,
            "<rect class=\"bar {}\" data-ply=\"{i}\" x=\"{}\" y=\"{loss_top}\" width=\"{}\" \
             height=\"{h:.2}\"><title>{} {} {}: lost {loss}</title></rect>",
            class_of(m.color()),
            x(i) - STEP * 0.35,
            STEP * 0.7,
            i + 1,
            m.color(),
            m.played
        );
    }
    // One point per move.
    for (i, (m, v)) in r.moves.iter().zip(&values).enumerate() {
        let severity = severity_class(m);
        let radius = if severity.is_empty() { 3.0 } else { 5.0 };
        let value = v.map_or("unknown".to_string(), |v| format!("{v:+}"));
        let loss = m.loss().map_or(String::new(), |l| format!(", lost {l}"));
        let _ = write!(
            s,
            "<circle class=\"pt {}{severity}\" data-ply=\"{i}\" cx=\"{}\" cy=\"{}\" \
             r=\"{radius}\"><title>{} {} {}: {value} for Black{loss}</title></circle>",
            class_of(m.color()),
            x(i),
            y(v.map_or(0.0, |v| v.as_f64())),
            i + 1,
            m.color(),
            m.played
        );
    }
    s.push_str("</svg>");
}

/// The moves as a table, one row per move (its `data-ply` selects it).
fn write_table(s: &mut String, r: &GameReview) {
    s.push_str(
        "<table class=\"moves\"><thead><tr><th>#</th><th>side</th><th>empties</th>\
         <th>played</th><th>value</th><th>best</th><th>value</th><th>loss</th><th>by</th>\
         <th>best line</th><th>book</th></tr></thead><tbody>",
    );
    for (i, m) in r.moves.iter().enumerate() {
        let severity = severity_class(m);
        let _ = write!(
            s,
            "<tr class=\"{}{severity}\" data-ply=\"{i}\"><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td>",
            class_of(m.color()),
            i + 1,
            m.color(),
            m.before.board.empty_count(),
            m.played
        );
        match &m.judged {
            Some(j) => {
                let line: Vec<String> = j.best.pv.iter().map(|m| m.to_string()).collect();
                let _ = write!(
                    s,
                    "<td>{:+}</td><td>{}</td><td>{:+}</td><td>{}</td><td>{}</td><td>{}</td>",
                    j.played.score,
                    j.best.mv,
                    j.best.score,
                    m.loss().map_or("-".to_string(), |l| l.to_string()),
                    escape(&j.played.kind.label()),
                    line.join(" ")
                );
            }
            None => s.push_str("<td></td><td></td><td></td><td></td><td>pass</td><td></td>"),
        }
        let book = m.book.map_or(String::new(), |b| {
            let played = b
                .played
                .map_or(String::new(), |p| format!(", played {:+}", p.score));
            format!("{} {:+}{played}", b.best.sq, b.best.score)
        });
        let _ = write!(s, "<td>{}</td></tr>", escape(&book));
    }
    s.push_str("</tbody></table>");
}

const STYLE: &str = "\
body{font:14px system-ui,sans-serif;margin:1em;color:#222}\
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.5em}\
.errors{background:#fee;border:1px solid #c00;padding:0 .8em}\
.graph{display:block;max-width:100%;height:auto;background:#fafafa;border:1px solid #ddd}\
.graph .axis{stroke:#ccc;stroke-width:1}.graph .zero{stroke:#888}\
.graph .lbl{font-size:10px;text-anchor:end;fill:#666}\
.graph .num{font-size:10px;text-anchor:middle;fill:#666}\
.graph .curve{fill:none;stroke:#467;stroke-width:1.5}\
.graph .pt{cursor:pointer;stroke:#333;stroke-width:1}.graph .pt.b{fill:#222}.graph .pt.w{fill:#fff}\
.graph .pt.mistake{stroke:#e80;stroke-width:2.5}.graph .pt.blunder{stroke:#d00;stroke-width:3}\
.graph .bar{cursor:pointer;stroke:#333;stroke-width:.5}.graph .bar.b{fill:#333}.graph .bar.w{fill:#ddd}\
.graph .cursor{stroke:#09c;stroke-width:2;opacity:.6}\
.sw{display:inline-block;width:.8em;height:.8em;border:1px solid #333;border-radius:50%;margin-right:.3em}\
.sw.b{background:#222}.sw.w{background:#fff}\
.view{display:flex;flex-wrap:wrap;gap:1em;margin:1em 0;align-items:flex-start}\
.board{width:340px;height:340px;flex:none}.info{flex:1;min-width:16em;line-height:1.5}\
.moves{border-collapse:collapse;font:12px monospace}\
.moves td,.moves th{padding:1px 6px;border-bottom:1px solid #eee;text-align:left}\
.moves tbody tr{cursor:pointer}.moves tr.mistake{background:#fff3e0}.moves tr.blunder{background:#fde0e0}\
.moves tr.sel{outline:2px solid #09c}\
.key{display:inline-block;width:.9em;height:.9em;border-radius:50%;vertical-align:middle}";

/// Draws the selected move's board and text, and moves the cursor and the row highlight.
const SCRIPT: &str = r##"(function(){
var data=JSON.parse(document.getElementById("review-data").textContent);
var cur={g:0,p:0};
function sq(m){return m&&m.length==2&&m!="PA"?{c:m.charCodeAt(0)-97,r:m.charCodeAt(1)-49}:null;}
function esc(t){return String(t).replace(/&/g,"&amp;").replace(/</g,"&lt;").replace(/>/g,"&gt;");}
function sign(v){return v>=0?"+"+v:""+v;}
function drawBoard(svg,mv){
  var h=[],c,r,i,k,x,y,b=mv.board;
  h.push('<rect x="0" y="0" width="340" height="340" fill="#fff"/>');
  h.push('<rect x="20" y="20" width="320" height="320" fill="#2e8b57"/>');
  for(i=0;i<8;i++){
    h.push('<text x="'+(40+40*i)+'" y="14" font-size="12" text-anchor="middle">'+String.fromCharCode(97+i)+'</text>');
    h.push('<text x="10" y="'+(44+40*i)+'" font-size="12" text-anchor="middle">'+(i+1)+'</text>');
  }
  for(i=0;i<=8;i++){
    h.push('<line x1="'+(20+40*i)+'" y1="20" x2="'+(20+40*i)+'" y2="340" stroke="#174"/>');
    h.push('<line x1="20" y1="'+(20+40*i)+'" x2="340" y2="'+(20+40*i)+'" stroke="#174"/>');
  }
  for(k=0;k<64;k++){
    c=b.charAt(k);if(c!="X"&&c!="O")continue;
    x=40+40*(k%8);y=40+40*Math.floor(k/8);
    h.push('<circle cx="'+x+'" cy="'+y+'" r="16" fill="'+(c=="X"?"#111":"#f4f4f4")+'" stroke="#000"/>');
  }
  function mark(m,color,rad,w){var s=sq(m);if(!s)return;
    h.push('<circle class="mark" cx="'+(40+40*s.c)+'" cy="'+(40+40*s.r)+'" r="'+rad+'" fill="none" stroke="'+color+'" stroke-width="'+w+'"/>');}
  if(mv.best)mark(mv.best.move,"#1e90ff",15,4);
  mark(mv.played,"#e33",9,4);
  svg.innerHTML=h.join("");
}
function info(game,p){
  var mv=game.moves[p],t=[];
  var who=mv.color=="black"?"Black":"White";
  t.push("<b>Move "+(p+1)+"</b>: "+who+" "+mv.played+" ("+mv.empties+" empties)");
  if(mv.best){
    t.push('<span class="key" style="background:#e33"></span> played '+mv.played+": "+sign(mv.played_value.value)+" ("+esc(mv.played_value.label)+")");
    t.push('<span class="key" style="background:#1e90ff"></span> best '+mv.best.move+": "+sign(mv.best.value)+" ("+esc(mv.best.label)+")");
    t.push("loss: "+(mv.loss===null?"-":mv.loss)+(mv.severity?" <b>"+mv.severity+"</b>":""));
    t.push("best line: "+mv.best.pv.join(" "));
  }else{t.push("a forced pass");}
  if(mv.book){t.push("book: "+mv.book.best.move+" "+sign(mv.book.best.value)+(mv.book.played?", played "+sign(mv.book.played.value):", played move not in the book"));}
  return t.join("<br>");
}
function show(g,p){
  var game=data.games[g];if(!game||!game.moves.length)return;
  p=Math.max(0,Math.min(game.moves.length-1,p));cur={g:g,p:p};
  var sec=document.querySelector('section[data-game="'+g+'"]');
  drawBoard(sec.querySelector(".board"),game.moves[p]);
  sec.querySelector(".info").innerHTML=info(game,p);
  var pt=sec.querySelector('.graph .pt[data-ply="'+p+'"]'),cu=sec.querySelector(".graph .cursor");
  if(pt&&cu){cu.setAttribute("x1",pt.getAttribute("cx"));cu.setAttribute("x2",pt.getAttribute("cx"));}
  var rows=sec.querySelectorAll(".moves tbody tr");
  for(var i=0;i<rows.length;i++)rows[i].className=rows[i].className.replace(/ ?sel/g,"")+(i==p?" sel":"");
}
var els=document.querySelectorAll("section [data-ply]");
for(var i=0;i<els.length;i++){els[i].addEventListener("click",function(e){
  var s=e.currentTarget.closest("section");show(+s.getAttribute("data-game"),+e.currentTarget.getAttribute("data-ply"));});}
var pick=document.getElementById("pick");
if(pick)pick.addEventListener("change",function(){
  var secs=document.querySelectorAll("section.game");
  for(var i=0;i<secs.length;i++)secs[i].hidden=(i!=+pick.value);
  show(+pick.value,0);});
document.addEventListener("keydown",function(e){
  if(e.key=="ArrowRight"){show(cur.g,cur.p+1);e.preventDefault();}
  if(e.key=="ArrowLeft"){show(cur.g,cur.p-1);e.preventDefault();}});
show(0,0);
})();"##;
