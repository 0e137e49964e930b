//! Weekly digest chart: renders a team's week (commitments opened vs done per
//! day, plus the on-time rate) into an in-memory PNG for the Telegram digest.
//!
//! The module is pure: it takes already localised strings and numbers, draws
//! with `plotters` into an RGB buffer and encodes it as PNG in memory. Nothing
//! is read from or written to disk at run time; the font (DejaVu Sans, see
//! `assets/fonts/LICENSE-DejaVu.txt`) is bundled into the binary.
//!
//! Input handling (never panics):
//! - `days` empty → [`ChartError::NoDays`] (there is nothing to plot; the caller
//!   should send the digest without a chart).
//! - `on_time_rate` shorter than `days` → missing days count as `None`; extra
//!   entries are ignored. Rates are clamped to `0..=1`; NaN counts as `None`.
//! - An all-zero week renders with a `0..2` count axis and no line.
//! - Overlong titles are shrunk and, if still too wide, cut with "…"; other
//!   overlong labels are clipped at the image edge. Control characters are skipped.
//!
//! Text is laid out and rasterised with `ab_glyph` directly (private `Label`):
//! plotters 0.3.7's own ab_glyph text path drops each glyph's left side bearing,
//! which visibly breaks Cyrillic letter spacing ("откры то"). plotters still
//! gets the font via `register_font` for the few internal paths that need one.

use std::error::Error as StdError;
use std::ops::Range;
use std::sync::OnceLock;

use ab_glyph::{Font as _, FontRef, PxScale, ScaleFont as _, point};
use image::ImageEncoder as _;
use plotters::backend::RGBPixel;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{FontStyle, register_font};

/// One day (one group of bars) of the chart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayBar {
    /// Axis label, already localised ("пн", "Mon", …).
    pub label: String,
    /// Commitments opened that day.
    pub opened: u32,
    /// Commitments completed that day.
    pub done: u32,
}

/// Everything the weekly chart shows. All strings come in already localised.
#[derive(Debug, Clone, PartialEq)]
pub struct WeekChart {
    /// Chart title, e.g. "Неделя 23–27 ноября".
    pub title: String,
    /// Legend text for the "opened" bars.
    pub opened_label: String,
    /// Legend text for the "done" bars.
    pub done_label: String,
    /// Legend text for the on-time line.
    pub on_time_label: String,
    /// Usually Mon..Fri.
    pub days: Vec<DayBar>,
    /// Per day, `0..=1`; `None` = no items were due that day. Same length as `days`.
    pub on_time_rate: Vec<Option<f64>>,
}

/// Why a chart could not be produced.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// `WeekChart::days` was empty.
    #[error("weekly chart has no days to plot")]
    NoDays,
    /// The bundled font could not be parsed.
    #[error("bundled chart font could not be loaded")]
    Font(#[source] ab_glyph::InvalidFont),
    /// plotters refused the bundled font (it gives no further detail).
    #[error("bundled chart font could not be registered with plotters")]
    FontRegistration,
    /// plotters failed while drawing.
    #[error("drawing the weekly chart failed")]
    Draw(#[source] Box<dyn StdError + Send + Sync + 'static>),
    /// The rendered bitmap could not be encoded as PNG.
    #[error("encoding the weekly chart as PNG failed")]
    Encode(#[source] image::ImageError),
}

/// Width of the rendered PNG in pixels.
pub const WIDTH: u32 = 800;
/// Height of the rendered PNG in pixels.
pub const HEIGHT: u32 = 450;

/// Family name the bundled font is registered under. plotters' built-in
/// defaults use "sans-serif", so registering under it keeps every text element
/// (including any we do not style explicitly) on the bundled font.
const FONT_FAMILY: &str = "sans-serif";
static FONT_BYTES: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

const BACKGROUND: RGBColor = WHITE;
const TEXT: RGBColor = RGBColor(0x26, 0x2b, 0x33);
const MUTED: RGBColor = RGBColor(0x5f, 0x66, 0x70);
const GRID: RGBColor = RGBColor(0xe3, 0xe6, 0xea);
const AXIS: RGBColor = RGBColor(0xa0, 0xa6, 0xae);
const OPENED: RGBColor = RGBColor(0x4c, 0x78, 0xa8);
const DONE: RGBColor = RGBColor(0x54, 0xa2, 0x4b);
const ON_TIME: RGBColor = RGBColor(0xf5, 0x85, 0x18);

const TITLE_SIZE: f64 = 30.0;
const TITLE_MIN_SIZE: f64 = 18.0;
const LEGEND_SIZE: f64 = 21.0;
const DAY_LABEL_SIZE: f64 = 24.0;
const TICK_LABEL_SIZE: f64 = 19.0;
const VALUE_LABEL_SIZE: f64 = 18.0;

/// At most this many day labels are printed; with more days every n-th is shown.
const MAX_DAY_LABELS: usize = 14;
/// Bar values are printed above the bars only while there is room for them.
const MAX_DAYS_WITH_VALUES: usize = 14;

/// Renders `chart` as an 800×450 PNG and returns the encoded bytes.
///
/// Errors with [`ChartError::NoDays`] when `chart.days` is empty; see the
/// module docs for how other unusual input is handled.
pub fn render_png(chart: &WeekChart) -> Result<Vec<u8>, ChartError> {
    if chart.days.is_empty() {
        return Err(ChartError::NoDays);
    }
    let font = bundled_font()?;

    let mut rgb = vec![0u8; WIDTH as usize * HEIGHT as usize * 3];
    let mut labels = Vec::new();
    {
        let backend = BitMapBackend::<RGBPixel>::with_buffer_and_format(&mut rgb, (WIDTH, HEIGHT))
            .map_err(draw_err)?;
        let root = backend.into_drawing_area();
        draw(&root, font, chart, &mut labels)?;
        root.present().map_err(draw_err)?;
    }
    for label in &labels {
        label.render(&mut rgb);
    }
    encode_png(&rgb, WIDTH, HEIGHT)
}

/// Parses the bundled font and registers it with plotters, once per process.
fn bundled_font() -> Result<&'static FontRef<'static>, ChartError> {
    static FONT: OnceLock<Result<FontRef<'static>, ChartError>> = OnceLock::new();
    let loaded = FONT.get_or_init(|| {
        let font = FontRef::try_from_slice(FONT_BYTES).map_err(ChartError::Font)?;
        register_font(FONT_FAMILY, FontStyle::Normal, FONT_BYTES)
            .map_err(|_| ChartError::FontRegistration)?;
        Ok(font)
    });
    match loaded {
        Ok(font) => Ok(font),
        Err(ChartError::Font(e)) => Err(ChartError::Font(*e)),
        Err(_) => Err(ChartError::FontRegistration),
    }
}

fn draw_err<E: StdError + Send + Sync + 'static>(err: E) -> ChartError {
    ChartError::Draw(Box::new(err))
}

/// `rgb` must hold exactly `width * height * 3` bytes (the encoder asserts it).
fn encode_png(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, ChartError> {
    let mut png = Vec::with_capacity(64 * 1024);
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(rgb, width, height, image::ColorType::Rgb8)
        .map_err(ChartError::Encode)?;
    Ok(png)
}

fn plotters_font(size: f64) -> TextStyle<'static> {
    FontDesc::new(FontFamily::Name(FONT_FAMILY), size, FontStyle::Normal).into()
}

/// A single line of text drawn with the bundled font at `at` (absolute pixel
/// coordinates), aligned by `h`/`v`. Labels are collected while plotters draws
/// and rendered on top of the finished bitmap by [`Label::render`].
/// Vertical alignment: `Top` = top of the line box, `Center` = middle of the
/// line box (≈ middle of digits and capitals), `Bottom` = baseline.
struct Label {
    font: &'static FontRef<'static>,
    at: (i32, i32),
    text: String,
    size: f32,
    color: RGBColor,
    h: HPos,
    v: VPos,
    /// Draw a 1 px outline in the background colour first (keeps text legible over lines).
    halo: bool,
}

impl Label {
    fn new(
        font: &'static FontRef<'static>,
        at: (i32, i32),
        text: impl Into<String>,
        size: f64,
    ) -> Self {
        Label {
            font,
            at,
            text: text.into(),
            size: size as f32,
            color: TEXT,
            h: HPos::Left,
            v: VPos::Top,
            halo: false,
        }
    }

    fn color(mut self, color: RGBColor) -> Self {
        self.color = color;
        self
    }

    fn align(mut self, h: HPos, v: VPos) -> Self {
        self.h = h;
        self.v = v;
        self
    }

    fn halo(mut self) -> Self {
        self.halo = true;
        self
    }

    fn offset(mut self, dx: i32, dy: i32) -> Self {
        self.at = (self.at.0.saturating_add(dx), self.at.1.saturating_add(dy));
        self
    }
}

/// Glyphs of `text` laid out on a baseline at y = 0 starting at x = 0, and the advance width.
fn layout(font: &FontRef<'static>, text: &str, size: f32) -> (Vec<ab_glyph::Glyph>, f32) {
    let scaled = font.as_scaled(PxScale::from(size));
    let mut glyphs = Vec::with_capacity(text.len());
    let mut pen = 0.0f32;
    let mut prev = None;
    for c in text.chars().filter(|c| !c.is_control()) {
        let id = scaled.glyph_id(c);
        if let Some(prev) = prev {
            pen += scaled.kern(prev, id);
        }
        glyphs.push(id.with_scale_and_position(scaled.scale(), point(pen, 0.0)));
        pen += scaled.h_advance(id);
        prev = Some(id);
    }
    (glyphs, pen)
}

fn text_width(font: &FontRef<'static>, text: &str, size: f64) -> i32 {
    let (_, w) = layout(font, text, size as f32);
    w.ceil().clamp(0.0, 1.0e6) as i32
}

impl Label {
    /// Alpha-blends the text into a `WIDTH`×`HEIGHT` RGB buffer; pixels outside are skipped.
    fn render(&self, rgb: &mut [u8]) {
        if self.halo {
            for (dx, dy) in [
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                self.render_at(rgb, (dx, dy), BACKGROUND);
            }
        }
        self.render_at(rgb, (0, 0), self.color);
    }

    fn render_at(&self, rgb: &mut [u8], shift: (i32, i32), color: RGBColor) {
        let scaled = self.font.as_scaled(PxScale::from(self.size));
        let (glyphs, width) = layout(self.font, &self.text, self.size);
        let left = match self.h {
            HPos::Left => 0.0,
            HPos::Center => width / 2.0,
            HPos::Right => width,
        };
        let baseline = match self.v {
            VPos::Top => scaled.ascent(),
            VPos::Center => (scaled.ascent() + scaled.descent()) / 2.0,
            VPos::Bottom => 0.0,
        };
        let origin_x = self.at.0.saturating_add(shift.0) as f32 - left;
        let origin_y = self.at.1.saturating_add(shift.1) as f32 + baseline;
        let color = [color.0, color.1, color.2];
        for mut glyph in glyphs {
            glyph.position = point(glyph.position.x + origin_x, origin_y);
            let Some(outline) = self.font.outline_glyph(glyph) else {
                continue; // e.g. a space
            };
            let bounds = outline.px_bounds();
            let (bx, by) = (bounds.min.x as i64, bounds.min.y as i64);
            outline.draw(|gx, gy, coverage| {
                let (x, y) = (bx + i64::from(gx), by + i64::from(gy));
                if !(0..i64::from(WIDTH)).contains(&x) || !(0..i64::from(HEIGHT)).contains(&y) {
                    return;
                }
                let i = (y as usize * WIDTH as usize + x as usize) * 3;
                let a = coverage.clamp(0.0, 1.0);
                for (dst, src) in rgb[i..i + 3].iter_mut().zip(color) {
                    let blended = f32::from(*dst) * (1.0 - a) + f32::from(src) * a;
                    *dst = blended.round().clamp(0.0, 255.0) as u8;
                }
            });
        }
    }
}

/// The count axis: `intervals` grid steps of `step` each, so that the
/// percentage axis (0..100 in the same number of steps) shares the grid lines.
#[derive(Debug, Clone, Copy, PartialEq)]
struct CountScale {
    step: u64,
    intervals: u64,
}

impl CountScale {
    /// Smallest tidy scale (step 1, 2, 5, 10, 20, 50, …; 2, 4 or 5 intervals)
    /// whose top is at least `max` (and at least 2, so an empty week has an axis).
    fn for_max(max: u32) -> Self {
        let target = u64::from(max).max(1);
        let mut best = CountScale {
            step: 1,
            intervals: 2,
        };
        let mut best_top = u64::MAX;
        let mut magnitude: u64 = 1;
        // 10^10 > u32::MAX, so this always finds a scale; the bound keeps it finite.
        for _ in 0..=10 {
            for mult in [1, 2, 5] {
                let step = mult * magnitude;
                for intervals in [5, 4, 2] {
                    let top = step * intervals;
                    if top >= target && top < best_top {
                        best = CountScale { step, intervals };
                        best_top = top;
                    }
                }
            }
            magnitude *= 10;
        }
        best
    }

    fn top(self) -> f64 {
        (self.step * self.intervals) as f64
    }

    fn count_ticks(self) -> Vec<f64> {
        (0..=self.intervals)
            .map(|i| (i * self.step) as f64)
            .collect()
    }

    fn percent_ticks(self) -> Vec<f64> {
        let step = 100 / self.intervals;
        (0..=self.intervals).map(|i| (i * step) as f64).collect()
    }
}

/// A linear f64 axis whose ticks (labels and grid lines) are exactly the given
/// values. plotters' own `with_key_points` wrapper cannot be used with a custom
/// label formatter on f64 axes (it lacks the formatting trait impl).
struct TickedAxis {
    range: Range<f64>,
    ticks: Vec<f64>,
}

impl TickedAxis {
    fn new(range: Range<f64>, ticks: Vec<f64>) -> Self {
        Self { range, ticks }
    }
}

impl Ranged for TickedAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.range.end - self.range.start;
        if !(span.is_finite() && span > 0.0) {
            return limit.0;
        }
        let frac = (value - self.range.start) / span;
        let px = f64::from(limit.0) + frac * f64::from(limit.1 - limit.0);
        // Saturating float→int conversion; keep far-off values near the canvas.
        px.clamp(-1.0e6, 1.0e6) as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

/// Headroom above the top grid line for value labels and the 100 % marker.
const HEADROOM: f64 = 1.12;

fn rate_at(chart: &WeekChart, day: usize) -> Option<f64> {
    chart
        .on_time_rate
        .get(day)
        .copied()
        .flatten()
        .filter(|r| !r.is_nan())
        .map(|r| r.clamp(0.0, 1.0) * 100.0)
}

type Area<'a> = DrawingArea<BitMapBackend<'a, RGBPixel>, Shift>;

fn draw(
    root: &Area<'_>,
    font: &'static FontRef<'static>,
    chart: &WeekChart,
    labels: &mut Vec<Label>,
) -> Result<(), ChartError> {
    root.fill(&BACKGROUND).map_err(draw_err)?;
    let area = root.margin(12, 8, 10, 14);

    let (title_area, rest) = area.split_vertically(46);
    labels.push(title_label(&title_area, font, &chart.title));
    let (legend_area, plot_area) = rest.split_vertically(36);
    draw_legend(&legend_area, font, chart, labels)?;
    draw_plot(&plot_area, font, chart, labels)
}

/// The title centred in `area`, shrunk (then cut with "…") to fit its width.
fn title_label(area: &Area<'_>, font: &'static FontRef<'static>, title: &str) -> Label {
    let (w, h) = area.dim_in_pixel();
    let max_w = w.saturating_sub(8) as i32;
    let mut size = TITLE_SIZE;
    let mut text = title.to_owned();
    while size > TITLE_MIN_SIZE && text_width(font, &text, size) > max_w {
        size -= 1.0;
    }
    if text_width(font, &text, size) > max_w {
        let mut chars: Vec<char> = title.chars().collect();
        while !chars.is_empty() {
            chars.pop();
            text = chars.iter().collect::<String>().trim_end().to_owned() + "…";
            if text_width(font, &text, size) <= max_w {
                break;
            }
        }
    }
    let (x0, y0) = area.get_base_pixel();
    Label::new(font, (x0 + w as i32 / 2, y0 + h as i32 / 2), text, size)
        .align(HPos::Center, VPos::Center)
}

/// Legend row: three entries centred under the title.
fn draw_legend(
    area: &Area<'_>,
    font: &'static FontRef<'static>,
    chart: &WeekChart,
    labels: &mut Vec<Label>,
) -> Result<(), ChartError> {
    const SWATCH: i32 = 16;
    const LINE_SWATCH: i32 = 28;
    const GAP_AFTER_SWATCH: i32 = 7;
    const GAP_BETWEEN: i32 = 28;

    let (w, h) = area.dim_in_pixel();
    let mid_y = h as i32 / 2;
    let entries = [
        (chart.opened_label.as_str(), OPENED, false),
        (chart.done_label.as_str(), DONE, false),
        (chart.on_time_label.as_str(), ON_TIME, true),
    ];

    let mut widths = Vec::with_capacity(entries.len());
    for (label, _, is_line) in entries {
        let swatch = if is_line { LINE_SWATCH } else { SWATCH };
        let text_w = text_width(font, label, LEGEND_SIZE);
        widths.push(swatch + GAP_AFTER_SWATCH + text_w);
    }
    let total: i32 = widths
        .iter()
        .fold(0i32, |a, b| a.saturating_add(*b))
        .saturating_add(GAP_BETWEEN * (entries.len() as i32 - 1));
    // If the labels are too long to fit, start at the left edge and let the
    // backend clip whatever runs past the right one.
    let mut x = ((w as i32 - total) / 2).max(0);

    for ((label, color, is_line), width) in entries.into_iter().zip(widths) {
        let swatch_w = if is_line {
            area.draw(&PathElement::new(
                vec![(x, mid_y), (x + LINE_SWATCH, mid_y)],
                color.stroke_width(3),
            ))
            .map_err(draw_err)?;
            area.draw(&Circle::new(
                (x + LINE_SWATCH / 2, mid_y),
                5,
                color.filled(),
            ))
            .map_err(draw_err)?;
            LINE_SWATCH
        } else {
            area.draw(&Rectangle::new(
                [(x, mid_y - SWATCH / 2), (x + SWATCH, mid_y + SWATCH / 2)],
                color.filled(),
            ))
            .map_err(draw_err)?;
            SWATCH
        };
        let (x0, y0) = area.get_base_pixel();
        let at = (x0 + x + swatch_w + GAP_AFTER_SWATCH, y0 + mid_y);
        labels.push(Label::new(font, at, label, LEGEND_SIZE).align(HPos::Left, VPos::Center));
        x = x.saturating_add(width).saturating_add(GAP_BETWEEN);
    }
    Ok(())
}

fn draw_plot(
    area: &Area<'_>,
    font: &'static FontRef<'static>,
    chart: &WeekChart,
    labels: &mut Vec<Label>,
) -> Result<(), ChartError> {
    let days = &chart.days;
    let n = days.len();
    let max = days.iter().map(|d| d.opened.max(d.done)).max().unwrap_or(0);
    let scale = CountScale::for_max(max);
    let y_top = scale.top() * HEADROOM;

    let label_every = n.div_ceil(MAX_DAY_LABELS).max(1);
    let day_ticks: Vec<f64> = (0..n).step_by(label_every).map(|i| i as f64).collect();
    let x_range = -0.5..(n as f64 - 0.5);

    let mut ctx = ChartBuilder::on(area)
        .margin_top(4)
        .margin_right(4)
        .x_label_area_size(40)
        .y_label_area_size(46)
        .right_y_label_area_size(58)
        .build_cartesian_2d(
            TickedAxis::new(x_range.clone(), day_ticks.clone()),
            TickedAxis::new(0.0..y_top, scale.count_ticks()),
        )
        .map_err(draw_err)?
        .set_secondary_coord(
            TickedAxis::new(x_range.clone(), day_ticks.clone()),
            TickedAxis::new(0.0..100.0 * HEADROOM, scale.percent_ticks()),
        );

    // plotters draws axes, ticks and grid; tick labels are drawn below with `Label`.
    let no_label = |_: &f64| String::new();
    ctx.configure_mesh()
        .disable_x_mesh()
        .bold_line_style(GRID.stroke_width(1))
        .axis_style(AXIS.stroke_width(1))
        .label_style(plotters_font(TICK_LABEL_SIZE))
        .x_label_formatter(&no_label)
        .y_label_formatter(&no_label)
        .set_tick_mark_size(LabelAreaPosition::Bottom, 0)
        .set_tick_mark_size(LabelAreaPosition::Left, 4)
        .draw()
        .map_err(draw_err)?;
    ctx.configure_secondary_axes()
        .axis_style(AXIS.stroke_width(1))
        .label_style(plotters_font(TICK_LABEL_SIZE))
        .y_label_formatter(&no_label)
        .set_tick_mark_size(LabelAreaPosition::Right, 4)
        .draw()
        .map_err(draw_err)?;

    // `backend_coord` gives absolute pixel positions, which is what `Label` uses.
    let (left_x, axis_y) = ctx.backend_coord(&(x_range.start, 0.0));
    let (right_x, _) = ctx.backend_coord(&(x_range.end, 0.0));
    for &t in &day_ticks {
        let (x, _) = ctx.backend_coord(&(t, 0.0));
        let label = days
            .get(t as usize)
            .map(|d| d.label.as_str())
            .unwrap_or_default();
        labels.push(
            Label::new(font, (x, axis_y), label, DAY_LABEL_SIZE)
                .align(HPos::Center, VPos::Top)
                .offset(0, 6),
        );
    }
    // Count and percent ticks share grid lines (same number of intervals).
    for (count, pct) in scale.count_ticks().into_iter().zip(scale.percent_ticks()) {
        let (_, y) = ctx.backend_coord(&(x_range.start, count));
        labels.push(
            Label::new(
                font,
                (left_x, y),
                format!("{}", count as u64),
                TICK_LABEL_SIZE,
            )
            .color(MUTED)
            .align(HPos::Right, VPos::Center)
            .offset(-10, 0),
        );
        labels.push(
            Label::new(
                font,
                (right_x, y),
                format!("{} %", pct as u64),
                TICK_LABEL_SIZE,
            )
            .color(ON_TIME)
            .align(HPos::Left, VPos::Center)
            .offset(10, 0),
        );
    }

    // Grouped bars: "opened" left of the day centre, "done" right of it.
    const BAR_W: f64 = 0.34;
    const BAR_GAP: f64 = 0.02;
    let bar = |i: usize, value: u32, left: bool, color: RGBColor| {
        let centre = i as f64;
        let (x0, x1) = if left {
            (centre - BAR_GAP - BAR_W, centre - BAR_GAP)
        } else {
            (centre + BAR_GAP, centre + BAR_GAP + BAR_W)
        };
        Rectangle::new([(x0, 0.0), (x1, f64::from(value))], color.filled())
    };
    ctx.draw_series(
        days.iter()
            .enumerate()
            .filter(|(_, d)| d.opened > 0)
            .map(|(i, d)| bar(i, d.opened, true, OPENED)),
    )
    .map_err(draw_err)?;
    ctx.draw_series(
        days.iter()
            .enumerate()
            .filter(|(_, d)| d.done > 0)
            .map(|(i, d)| bar(i, d.done, false, DONE)),
    )
    .map_err(draw_err)?;

    if n <= MAX_DAYS_WITH_VALUES {
        let offset = BAR_GAP + BAR_W / 2.0;
        let values = days.iter().enumerate().flat_map(|(i, d)| {
            [(i as f64 - offset, d.opened), (i as f64 + offset, d.done)]
                .into_iter()
                .filter(|&(_, v)| v > 0)
        });
        for (x, v) in values {
            let at = ctx.backend_coord(&(x, f64::from(v)));
            labels.push(
                Label::new(font, at, v.to_string(), VALUE_LABEL_SIZE)
                    .align(HPos::Center, VPos::Bottom)
                    .halo()
                    .offset(0, -5),
            );
        }
    }

    // On-time line on the secondary (percent) axis; a `None` day breaks it.
    let mut run: Vec<(f64, f64)> = Vec::new();
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    for i in 0..n {
        match rate_at(chart, i) {
            Some(pct) => run.push((i as f64, pct)),
            None if !run.is_empty() => runs.push(std::mem::take(&mut run)),
            None => {}
        }
    }
    if !run.is_empty() {
        runs.push(run);
    }
    for segment in &runs {
        if segment.len() > 1 {
            ctx.draw_secondary_series(LineSeries::new(
                segment.iter().copied(),
                ON_TIME.stroke_width(3),
            ))
            .map_err(draw_err)?;
        }
    }
    let points = runs.into_iter().flatten().map(|p| {
        EmptyElement::at(p)
            + Circle::new((0, 0), 7, BACKGROUND.filled())
            + Circle::new((0, 0), 5, ON_TIME.filled())
    });
    ctx.draw_secondary_series(points).map_err(draw_err)?;

    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

    fn day(label: &str, opened: u32, done: u32) -> DayBar {
        DayBar {
            label: label.to_owned(),
            opened,
            done,
        }
    }

    fn russian_week() -> WeekChart {
        WeekChart {
            title: "Неделя 23–27 ноября".to_owned(),
            opened_label: "открыто".to_owned(),
            done_label: "выполнено".to_owned(),
            on_time_label: "в срок, %".to_owned(),
            days: vec![
                day("пн", 5, 2),
                day("вт", 3, 4),
                day("ср", 7, 6),
                day("чт", 2, 3),
                day("пт", 4, 1),
            ],
            on_time_rate: vec![Some(1.0), Some(0.75), None, Some(0.5), Some(0.0)],
        }
    }

    /// Checks the PNG signature and the IHDR chunk, returns (width, height).
    fn png_dimensions(png: &[u8]) -> (u32, u32) {
        assert!(png.len() > 33, "PNG too short: {} bytes", png.len());
        assert_eq!(png[..8], PNG_SIGNATURE, "missing PNG signature");
        assert_eq!(&png[12..16], b"IHDR", "first chunk must be IHDR");
        let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
        let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
        (width, height)
    }

    fn assert_valid_png(png: &[u8]) {
        assert_eq!(png_dimensions(png), (WIDTH, HEIGHT));
        let img = image::load_from_memory_with_format(png, image::ImageFormat::Png)
            .expect("output decodes as PNG")
            .to_rgb8();
        assert_eq!(img.dimensions(), (WIDTH, HEIGHT));
    }

    /// Number of pixels of exactly `color` in the decoded image.
    fn count_color(png: &[u8], color: RGBColor) -> usize {
        let img = image::load_from_memory_with_format(png, image::ImageFormat::Png)
            .unwrap()
            .to_rgb8();
        img.pixels()
            .filter(|p| p.0 == [color.0, color.1, color.2])
            .count()
    }

    #[test]
    fn typical_week_with_cyrillic_labels() {
        let png = render_png(&russian_week()).expect("renders");
        assert_valid_png(&png);
        assert!(count_color(&png, OPENED) > 1_000, "opened bars drawn");
        assert!(count_color(&png, DONE) > 1_000, "done bars drawn");
        assert!(count_color(&png, ON_TIME) > 200, "on-time line drawn");
        if let Ok(path) = std::env::var("KEPT_CHART_SAMPLE") {
            std::fs::write(path, &png).unwrap();
        }
    }

    #[test]
    fn cyrillic_text_actually_renders() {
        let font = bundled_font().unwrap();
        for c in "Неделяноябрпнвтсрчтпвыполнено".chars() {
            assert_ne!(font.glyph_id(c).0, 0, "bundled font lacks {c:?}");
        }
        // Same chart with and without a Cyrillic title: if the glyphs were
        // missing the two images would be identical.
        let mut a = russian_week();
        a.title = "Неделя".to_owned();
        let mut b = russian_week();
        b.title = String::new();
        assert_ne!(render_png(&a).unwrap(), render_png(&b).unwrap());
    }

    #[test]
    fn empty_week_renders() {
        let mut chart = russian_week();
        for d in &mut chart.days {
            d.opened = 0;
            d.done = 0;
        }
        chart.on_time_rate = vec![None; chart.days.len()];
        let png = render_png(&chart).expect("renders");
        assert_valid_png(&png);
        assert_eq!(count_color(&png, OPENED), legend_pixels(&png, OPENED));
    }

    /// Pixels of `color` in the legend row only (empty-week sanity check).
    fn legend_pixels(png: &[u8], color: RGBColor) -> usize {
        let img = image::load_from_memory_with_format(png, image::ImageFormat::Png)
            .unwrap()
            .to_rgb8();
        img.enumerate_pixels()
            .filter(|(_, y, p)| *y < 100 && p.0 == [color.0, color.1, color.2])
            .count()
    }

    #[test]
    fn empty_days_is_an_error() {
        let mut chart = russian_week();
        chart.days.clear();
        chart.on_time_rate.clear();
        assert!(matches!(render_png(&chart), Err(ChartError::NoDays)));
    }

    #[test]
    fn odd_input_does_not_panic() {
        let base = russian_week();
        let cases = [
            WeekChart { on_time_rate: vec![], ..base.clone() },
            WeekChart { on_time_rate: vec![Some(f64::NAN), Some(-3.0), Some(7.0), Some(f64::INFINITY)], ..base.clone() },
            WeekChart { on_time_rate: vec![Some(0.5); 40], ..base.clone() },
            WeekChart {
                days: vec![day("пн", u32::MAX, u32::MAX), day("", 0, u32::MAX)],
                on_time_rate: vec![Some(f64::NEG_INFINITY)],
                ..base.clone()
            },
            WeekChart {
                title: "Очень длинный заголовок недели, который никак не помещается в одну строку картинки".repeat(3),
                opened_label: "x".repeat(200),
                done_label: String::new(),
                on_time_label: "🙂 emoji \u{0} \n\t control".to_owned(),
                days: (0..400).map(|i| day(&format!("д{i}"), i, i / 2)).collect(),
                on_time_rate: (0..400).map(|i| (i % 3 != 0).then_some(f64::from(i) / 400.0)).collect(),
            },
            WeekChart { days: vec![day("только один день", 1, 0)], on_time_rate: vec![Some(1.0)], ..base.clone() },
        ];
        for chart in &cases {
            let png = render_png(chart).expect("renders");
            assert_valid_png(&png);
        }
    }

    #[test]
    fn error_keeps_cause_chain() {
        let err = encode_png(&[], 0, 0).unwrap_err();
        assert!(matches!(err, ChartError::Encode(_)));
        assert!(StdError::source(&err).is_some());
        assert!(!err.to_string().is_empty());
    }

    #[test]
    fn count_scale_is_tidy() {
        let s = |max| {
            let s = CountScale::for_max(max);
            (s.step, s.intervals)
        };
        assert_eq!(s(0), (1, 2));
        assert_eq!(s(1), (1, 2));
        assert_eq!(s(2), (1, 2));
        assert_eq!(s(3), (1, 4));
        assert_eq!(s(5), (1, 5));
        assert_eq!(s(7), (2, 4));
        assert_eq!(s(13), (5, 4)); // tie with (10, 2): first found (more grid lines) wins
        assert!(CountScale::for_max(u32::MAX).top() >= f64::from(u32::MAX));
        for max in [0, 1, 9, 99, 1234, u32::MAX] {
            let scale = CountScale::for_max(max);
            assert_eq!(scale.percent_ticks().last(), Some(&100.0));
            assert_eq!(scale.count_ticks().len(), scale.percent_ticks().len());
        }
    }
}
