"""Every threshold of the PDF engine, named, in one frozen object (after pdfplumber's
``TableSettings``). Lengths in ``em`` are multiples of a font size (the body's unless said
otherwise); lengths in ``pt`` are PDF points; shares are of a page, a column or a line.

Steps take a :class:`Settings` (``SETTINGS`` by default); nothing in a function body is a bare
ratio. Measured on real ACM, IEEE, USENIX, amsart and LNCS papers unless a comment says
otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    # -- reading (read.py) ------------------------------------------------------------------
    #: PDF's own limit of a page side (ISO 32000: 200 in); larger pages are refused
    max_page_side: float = 14_400.0
    #: pages with more drawing objects than this are refused: a million paths take PDFium
    #: a second and 400 MB to parse, and no paper draws that much on a page
    max_page_objects: int = 500_000
    #: pages with more objects than this (a scatter plot of 100,000 points) are read by their
    #: rendered ink: walking them object by object costs ~10 µs an object
    ink_objects: int = 20_000
    #: forms nested this deep are refused: PDFium parses no deeper than 40 levels, so what is
    #: drawn there is neither read nor rendered; real papers nest two or three
    max_form_depth: int = 32
    #: CPU time (s) PDFium may take to parse one page, measured in a child process before the
    #: page is read (guard.py): a paper's page takes milliseconds, a page of 300,000 objects
    #: 0.4 s, a million 1.2 s; a form drawing a form ten times, seven deep, much more
    parse_seconds: float = 2.0
    #: CPU time (s) a build's child may take to load, check and render one page for a crop
    #: (figures/pdf_crops.py): a page of 300,000 objects takes about 1 s, of a million paths
    #: 1.2-1.7 s to load before it is refused by its count
    render_seconds: float = 5.0
    #: memory (bytes) PDFium may take to parse one page in that child: a million paths take
    #: 200 MB; the ten-million-object form above over 2 GB
    parse_memory: int = 1 << 30
    #: wall-clock time (s) the reader waits for that child's verdict on a page before it stops
    #: it: its CPU timer bounds its work, this bounds a wait (on a loaded machine a page of
    #: 300,000 objects may take a few seconds of wall time)
    parse_wall_seconds: float = 60.0
    #: a glyph within this angle (radians) of the page's upright is text; others are drawing
    upright_tolerance: float = 0.01
    #: a fill or stroke whose every channel is at least this (0-255) is white: it shows nothing
    white_level: int = 250

    # -- rendered ink (ink.py) --------------------------------------------------------------
    #: grey level (0-255) under which a rendered pixel is ink
    ink_level: int = 245
    #: resolution of the render that stands in for a page's objects (and trims its boxes)
    ink_dpi: float = 72.0
    #: paths whose paint reads as white in a file with patterns are looked for in a render at
    #: this resolution (a pattern's paint is ink, a white background is not)
    pattern_dpi: float = 36.0
    #: … and kept when this share of the area they cover renders as ink (a gradient fills
    #: all of it; the chart drawn over a plot's white background patch a part)
    pattern_ink_share: float = 0.5
    #: resolution of the render that trims a float's box to its ink
    trim_dpi: float = 72.0
    #: white kept around a trimmed box (pt): a stroke is wider than its path
    trim_pad: float = 1.0
    #: resolution of the self-check render (unexplained ink)
    check_dpi: float = 36.0
    #: a glyph's box grown by this (pt) covers its rendered ink (anti-aliasing, overhangs)
    glyph_pad: float = 1.0
    #: a graphic's box grown by this (pt) covers its rendered ink (stroke width)
    graphic_pad: float = 2.0
    #: blots of fewer pixels than this are noise in the self-check
    check_min_pixels: int = 3

    # -- glyphs and text (text.py) ------------------------------------------------------------
    #: a glyph drawn again within this share of its width (or ``overdraw_min`` em) of itself
    #: is overprinted (fake bold), not a second letter ("ll" stand a whole glyph apart)
    overdraw_shift: float = 0.3
    overdraw_min: float = 0.05
    #: width (pt) of the buckets overdrawn glyphs are looked up in
    overdraw_bucket: float = 2.0
    #: a gap wider than this (em) between glyphs is a word space: justified text's are ≥ 0.15,
    #: kerning stays under 0.1
    word_space: float = 0.11
    #: … or wider than this where the PDF has a real space character
    marked_space: float = 0.02
    #: … or wider than the line's letter spacing by this where PDFium generated a space
    generated_space: float = 0.03
    #: glyphs smaller than this share of a line's largest are scripts (no generated spaces)
    script_size: float = 0.9
    #: in a listing a space is an empty cell: a gap wider than this (em)
    code_space: float = 0.35
    #: between two monospaced glyphs only a gap wider than this (em) is a space
    mono_space: float = 0.3
    #: a line with more than this share of monospaced glyphs is code
    code_mono_share: float = 0.8
    #: … as is a letter-spaced one: this many tokens or more, this share of them one letter
    spaced_tokens: int = 6
    spaced_share: float = 0.45
    #: … and this share of its glyphs in one font (maths set apart mixes the text's font with
    #: the maths fonts: "graph for Z = X + Y − X · Y", half its glyphs in CMMI, CMR and CMSY)
    spaced_font_share: float = 0.8
    #: glyphs whose middles lie within this (em) of the run's are on its line
    same_line: float = 0.45
    #: a gap wider than this (em) ends a fragment: the cells of a table row, or two columns
    fragment_gap: float = 1.0
    #: a glyph this far (em) left of the last one starts a new fragment (a new line)
    backward_gap: float = 0.5
    #: a glyph this much larger than the run's reference size becomes its reference
    size_step: float = 1.05
    #: fragments of a line further apart than this (em) are table cells (wider than the word
    #: spaces of a justified line)
    cell_gap: float = 2.0

    # -- page layout (page_layout.py) ------------------------------------------------------------
    #: the body size when a paper has no text at all
    default_body: float = 10.0
    #: a line within this share of the body size (plus 0.1 pt) is body-sized
    body_size_tolerance: float = 0.08
    #: a line of running text fills this share of its column (or starts at its left edge)
    body_width: float = 0.55
    #: a line ending within this (em) of its column's right edge is full
    full_line: float = 1.2
    #: a first line set in by this much (em) is indented; more is a display or a list
    indent_min: float = 0.5
    indent_max: float = 4.0
    #: line numbers: bare numbers whose right edges share a column this wide (pt), stacked
    #: this many on a page
    line_number_column: float = 3.0
    line_number_stack: int = 8
    #: … or at least this many counting at one step (lineno's every fifth line) outside all
    #: other text of the page
    line_number_run: int = 4
    #: a number drawn into the fragment of its line is set in type at most this share of the
    #: text's, this far (em of its own size) apart from it
    line_number_size: float = 0.8
    line_number_gap: float = 1.0
    #: gutter: body-size lines of this many glyphs, at least this many on the page
    gutter_line_chars: int = 8
    gutter_min_lines: int = 6
    #: … a band at least this wide (pt), crossed by no more than this share of them
    gutter_min_width: int = 4
    gutter_crossing: float = 0.1
    #: … lying in this part of the page's width, with this share of the lines on each side
    gutter_zone: tuple[float, float] = (0.3, 0.7)
    gutter_side_share: float = 0.1
    #: a paper has a usual gutter when one page in this many has one of its own
    gutter_pages: int = 3
    #: … which a page takes when no more than this share of its body lines cross it (or when
    #: those that do stand above the others: a title page's block across the columns)
    gutter_settle_crossing: float = 0.2
    #: fragments whose middles lie within this (em) of each other share a baseline
    same_baseline: float = 0.35
    #: column edges are measured on body-size lines of this many glyphs or more
    edge_line_chars: int = 20
    #: a page measures its own edges when it has this many such lines
    edge_page_lines: int = 5
    #: a page without text lines has text from this share of its width to 1 minus it
    default_margin: float = 0.08
    #: body lines this far apart (em, baseline to baseline) measure the leading (a
    #: double-spaced manuscript's lines stand 2.4 em apart: an office export's at 10 pt)
    leading_range: tuple[float, float] = (0.8, 2.6)
    #: the leading when none can be measured (em)
    default_leading: float = 1.2
    #: running heads and footers lie in this share of the page's height at its top or bottom
    running_zone: float = 0.15
    #: a running head recurs on another page within this (pt) of its height
    running_height: float = 4.0
    #: … in type of its size, within this share of it (a running head is set alike on every
    #: page; a plot's title and another plot's legend that share a word are not)
    running_size: float = 0.1
    #: … and stands further than this many leadings from the text (running text at a
    #: page's top has its next line one leading below)
    running_gap: float = 1.3
    #: bare page numbers at one height (``running_height``) on this many pages or more,
    #: rising from page to page, are folios even where a float's body stands right under
    #: them (a page-top table under IOP's folio, one leading down): a chart's tick labels
    #: neither recur at one height on so many pages nor rise with them
    folio_pages: int = 3
    #: a running head set in parts (left and right) reaches into this share of the page's
    #: width at either side
    head_sides: float = 0.2
    #: text outside this share of the page's width at either side is a margin stamp
    stamp_margin: float = 0.07
    #: a paper has a text band when it has this many lines of running text
    band_min_lines: int = 20
    #: … of which one in this many at either end is an outlier
    band_outliers: int = 200
    #: … and its edges lie this much (of the leading) outside its first and last lines
    band_pad: float = 0.5
    #: … and at least reach this share of the page's height from its top and bottom (text
    #: areas start within it: IEEE's 0.75 in top margin is 7 % of a Letter page; a short
    #: paper whose running text never reaches its margins says nothing about them)
    band_edge: float = 0.06
    #: a paper whose body-size glyphs are monospaced in this share is set in a monospaced font
    mono_paper: float = 0.3

    # -- figure detection (figures/detect.py) ------------------------------------------------
    #: a graphic over this share of the page is its background or frame, no float's body
    background_share: float = 0.85
    #: a running head's rule (fancyhdr's ``\headrule``, Frontiers' line under the head and
    #: over the folio): a thin rule (``float_rule_height``) within this many leadings of a
    #: running head above it or a running footer below it (Frontiers: 6 pt, half a
    #: leading), …
    running_rule_reach: float = 1.5
    #: … across at least this share of that running line's width: page furniture, no
    #: float's body (a figure set under it otherwise grows up to it, across the text width)
    running_rule_span: float = 0.9
    #: a line lies in a column when this share of its width does
    column_share: float = 0.8
    #: running text starts within this (pt) of its column's left edge (or ``body_indent`` em
    #: right of it: an indented first line) and ends within it of the right edge
    body_start_slack: float = 3.0
    body_indent: float = 3.0
    #: text inside a graphic (within this slack, pt) taller than this many text lines is
    #: figure text
    inside_slack: float = 2.0
    inside_height: float = 2.0
    #: a paragraph's short last line lies this many leadings below a line of running text
    paragraph_pitch: tuple[float, float] = (0.7, 1.3)
    #: running text narrowed beside a wrapfigure: this many lines or more from the column's
    #: left edge, each of this many glyphs, this many of them ending at one right edge
    narrow_lines: int = 3
    narrow_chars: int = 25
    narrow_justified: int = 2
    #: a label's text may stand this far (em) right of it, on its line (within this share of
    #: the size, between middles)
    label_gap: float = 3.0
    #: a label without a delimiter before a capital ("Table 1 Comparison") starts a caption
    #: when its line is centred in its column within this (em, the difference of its
    #: margins), each margin wider than that
    centred_caption: float = 1.5
    label_line: float = 0.5
    #: scores of a caption candidate: a bold label, a delimiter after it, standing apart from
    #: running text, a region right beside it (within ``near_lines`` leadings)
    bold_label_score: float = 2.0
    delim_score: float = 1.0
    apart_score: float = 1.0
    near_score: float = 3.0
    #: … and a region holding a body at all (a figure's: drawn), however far within reach
    body_score: float = 1.0
    #: a paragraph's first line is indented by this (em, from its column's left edge) over
    #: running text set flush under it: it opens a paragraph, no caption does
    paragraph_indent: tuple[float, float] = (0.5, 4.0)
    near_lines: float = 2.0
    #: a graphic within a caption's line, glyphs left and right of it, no wider than this
    #: (em of the line's size) is a mark of the caption (an underscore drawn as a rule, an
    #: underline), no float's body; a float's rule spans the float, many em wide
    caption_mark_width: float = 3.0
    #: a float's usual side (figures above their captions) wins its vote unless the other
    #: side's region starts more than this many leadings nearer
    side_margin: float = 1.0
    #: … and a caption with nothing on one side (its body can only be on the other) counts
    #: this many votes, one whose both sides hold something (floats stacked in a column,
    #: the next one's body right under a caption) one
    sure_vote: int = 2
    #: … and a table's region drawing nothing and no taller than this many leadings is one
    #: line of text, no table's body (an unnumbered heading under a caption set below its
    #: table, as AAAI's template sets them): it says nothing of the side
    vote_table_lines: float = 1.5
    #: a paper's caption style: the delimiter after at least this share of its figure and
    #: table labels set with one, at least this many (a label set otherwise is a reference
    #: when its float has a caption in the style or another caption goes on through it)
    style_share: float = 0.6
    style_min: int = 2
    #: a caption goes on with a line starting this far (em) below its last one's top, within
    #: this gap (em) of it, of its size (within ``caption_size`` pt)
    caption_next: float = 0.5
    caption_lead: float = 0.6
    #: … or, on a double-spaced page, within the white between two body lines plus this
    #: (em): a manuscript's captions are double-spaced as its text is
    caption_body_lead: float = 0.2
    caption_size: float = 0.6
    #: … and lies within the last line's height by no more than this share of its own (a
    #: subscript of inline maths hangs under its line, inside that line's box: ARR's
    #: 'Table 2: γ(i) = b(i)Q W(i)⊤k at …' ended at the k)
    caption_script: float = 0.5
    #: … and a line whose superscript pushed it down (TeX's \lineskip) is sought this many
    #: em further down, its lead measured from that superscript's top
    caption_script_lead: float = 1.0
    #: … or, after a line ending in a hyphen (a word broken across the lines), within this
    #: gap (em): a caption set with loose line spacing (IEEE's 'TABLE IV: … asso- / ciated
    #: …' 6.6 pt apart at 10 pt) goes on; the hyphen says the caption is not done
    caption_hyphen_lead: float = 1.0
    #: … or, under a label alone on its line, within this share of the label's size (IEEE
    #: sets TABLE I in capitals, its text below in smaller ones)
    alone_caption_size: float = 0.25
    #: fragments of a row further apart than this (em) are table cells, not a caption's line
    caption_cell_gap: float = 1.5
    #: … and a line under a caption with glyphs more than this (em) apart (wider than a
    #: justified word space), over a rule within this many leadings under it, is a table's
    #: header row (IJCAI sets a header at the caption's size between the caption and the
    #: first rule, its cells a column separation apart)
    header_gap: float = 0.8
    header_rule_lines: float = 2.0
    #: a caption with running text beside its first line (a wrapfigure's) keeps that line's
    #: measure: a line below reaching past it by more than this (em) is the text under the
    #: wrapfigure, back at the column's full width
    wrap_caption_reach: float = 1.0
    #: a graphic reaching this far (pt) out of a span narrowed by running text beside the
    #: caption is drawn across that text (a margin note's leader line), not the float's
    wrap_reach: float = 4.0
    #: a float crosses the gutter though its caption lies in one column when an item of no
    #: running text reaches this far (pt) into both columns, within this many leadings of the
    #: caption (Elsevier's page-wide tables start 4 pt under their captions, IEEE's figures
    #: end 7 pt over theirs; a column float's neighbour across the page stands a float's
    #: separation, about two leadings, away)
    wide_overlap: float = 4.0
    wide_reach: float = 1.0
    #: … or a rule across this share of the text width within this many leadings under it (IEEE
    #: Access sets a page-wide table's top rule 13 pt, 1.1 leadings, under a caption of one
    #: column's width: the table's own rule says it spans the page, not its caption)
    wide_rule_share: float = 0.95
    wide_rule_reach: float = 1.5
    #: a template's float rule: a rule no thicker than this (pt; an algorithm's top rule is
    #: 1.6), this close (em of the caption's size) under a caption, across this share of its
    #: span (OSDI '14: 0.5 pt, 2.4 pt under 9-pt captions, the column's width) …
    float_rule_height: float = 2.0
    float_rule_gap: float = 0.5
    float_rule_span: float = 0.95
    #: … under at least this many figure captions, and this share of them (figures are
    #: captioned below: a rule right under a figure's caption is none of its body)
    float_rule_figures: int = 2
    float_rule_share: float = 0.5
    #: a frame drawn around a caption alone (BMC's submission template frames each figure
    #: legend; its figure is a file of its own): thin rules (``float_rule_height``) on all
    #: four sides of the caption, or one graphic round it, each within this many leadings of
    #: it (BMC: 0.9 over, 0.5 under), nothing else inside; no float's body
    frame_reach: float = 1.5
    #: an item belongs to a caption's span when this share of its width lies in it
    region_share: float = 0.5
    #: a table broken across columns or pages (:mod:`duizhao.figures.continued`): captioned
    #: above (its caption's foot no more than ``continued_slack`` pt under the body's top), its
    #: body ending within this many leadings of the text band's foot, nothing but the margins
    #: under it …
    continued_foot: float = 2.0
    continued_slack: float = 2.0
    #: … goes on at the top of the next column or page: items in the table's span (this share
    #: of their width inside it), the first within this many leadings of the band's top, each
    #: within ``continued_gap`` leadings of the one above, down to running text, a heading or
    #: a caption; cells or rules among them, reaching across this share of the table's width
    continued_span_share: float = 0.8
    continued_top: float = 2.0
    continued_gap: float = 2.0
    continued_width: float = 0.8
    #: captions side by side overlap vertically, or stand within this many leadings
    beside_lines: float = 2.0
    #: … or, apart across the page, with only this many leadings of white between their
    #: lines, no running text there (minipages centred on each other: a tall figure's caption
    #: under a short one's, a table's caption above its cells beside a figure's under it)
    sibling_reach: float = 20.0
    #: … unless the upper caption has drawings right over it (within this many leadings, an
    #: axis title between: its float's, captioned below) and more under it: a row of figures
    #: over a page-wide one
    sibling_own_reach: float = 3.0
    #: … but a page-wide float's caption (its body across the gutter, the caption in one
    #: column) only with one within this many leadings: 0, one sharing its lines
    wide_beside_lines: float = 0.0
    #: two such captions split their spans at the widest white gap between them, sought in
    #: what is drawn this many leadings over and under them (their floats' bodies); the
    #: middle between the captions when nothing there leaves a gap
    sibling_split_reach: float = 3.0
    #: graphics this far (pt) outside the text band still count (a rule under a header)
    band_slack: float = 2.0
    #: a region ends at a gap wider than this (pt, or leadings); past a table's first row at
    #: one wider than ``row_*``
    gap_floor: float = 24.0
    gap_lines: float = 2.5
    row_floor: float = 8.0
    row_lines: float = 0.8
    #: a table goes on past where its rows stop (a wide gap, a cell read as running text) to
    #: the next rule of the extent of one it took (both ends within ``ruled_align`` pt; a rule
    #: at least ``ruled_min_lines`` leadings long), over what lies between unless that holds
    #: another float's item or caption, a line of running text or a heading across
    #: ``ruled_prose`` of the rule's width or a white gap over ``ruled_gap_lines`` leadings
    #: (TMLR: rows 20 pt apart under a double rule; an italic group row under the header's
    #: rule read as running text)
    ruled_align: float = 2.0
    #: a table's body is at least this many leadings wide and tall: a box under it (a top
    #: rule alone, a column rule alone, a strip over bordered cells) is no body, and the
    #: table's rules and cells are sought again (:mod:`duizhao.figures.body_guards`); IEEE's
    #: smallest tables (a header and one row, 24 pt at a 12 pt leading) stand
    body_min_lines: float = 1.5
    ruled_min_lines: float = 3.0
    ruled_prose: float = 0.8
    ruled_gap_lines: float = 2.5
    #: an unruled table goes on over a row with at least ``grid_cells`` cells (and most of
    #: them) starting within ``grid_align`` pt of where its cells start (rows set far apart)
    grid_cells: int = 2
    grid_align: float = 2.0
    #: a table's notes under its bottom rule are set in type smaller than this share of the
    #: body (ACM TOG: about 37 pt of small type right under the rule), each line within a
    #: row gap (``row_*``) of the one above
    note_size: float = 0.95
    #: … but a figure's first item may stand this many leadings from its caption (a plot
    #: drawn with white space under it: 33-38 pt above 9-pt captions in ICLR and PVLDB)
    first_gap_lines: float = 4.0
    #: items may start this far (pt) inside the caption's edge
    start_slack: float = 1.5
    #: … and a rule this far (em of the caption's size): glyph boxes (ascender high) of a
    #: caption set 2 pt under a table's bottom rule reach over the rule
    rule_overlap: float = 0.4
    #: a line with a rule within this many leadings over and under it, each across this
    #: share of its width, is a table's row (a header filling its column), no running text
    #: and no running head (the layout pass: a header row at a page's top)
    ruled_row_reach: float = 0.8
    ruled_row_span: float = 0.9
    #: a figure's body is at least this (pt) both ways, and draws graphics or text that is
    #: no prose (code, or type of neither the body's nor the caption's size): a legend's own
    #: text, ragged running text or a few tiny marks (a 45 x 13 pt logo) over a legend whose
    #: figure the journal supplies apart is no body, and the caption is reported instead
    figure_ink_min: float = 16.0
    #: running text overlapping what was taken by more than this (pt) is beside the float
    beside_overlap: float = -0.5

    # -- rotated floats (figures/rotated.py) --------------------------------------------------
    #: a page holds a rotated float (a sidewaystable) only with this many glyphs set at a
    #: quarter turn: a chart's turned axis titles have a few dozen at most
    turned_min_glyphs: int = 80
    #: glyphs within this angle (radians) of a quarter turn are read as turned lines
    turned_tolerance: float = 0.01
    #: turned glyphs are on one line when their extents across it overlap by this share
    turned_line_overlap: float = 0.5
    #: a gap (em of the glyph's size) along a turned line wider than this is a space
    turned_space: float = 0.15
    #: a turned caption's next line follows within this (em) in its size (±``caption_size``)
    turned_caption_gap: float = 0.6
    #: a rotated float's body grows from its caption over what lies within this gap (em of
    #: the caption's size): the sn-jnl sidewaystable's rows stand 1 em apart, its caption
    #: 1.6 em from its top rule; the page number 4 em past its notes
    turned_body_gap: float = 2.5
    #: a rotated float's body is at least this long (pt) along its lines and this many of
    #: them deep (a caption with a rule or two under it is no table)
    turned_body_min: float = 72.0
    turned_body_lines: int = 3

    # -- PDF import (importer/pdf/) ----------------------------------------------------------
    #: a line within this (pt) of a float's box or its caption's is the float's
    float_slack: float = 2.0
    #: … as is one inside its width that crosses its top or bottom edge by this share of the
    #: line's height (a plot's title the box stops short of)
    straddle_overlap: float = 0.15
    #: an algorithm's or a listing's box found taller than this many leadings holds its body
    listing_lines: float = 2.0
    #: lines set on under text narrowed beside a float keep its measure while each stands
    #: within this many leadings (top to the bottom of the line above) of the one above
    wrap_tail_lead: float = 0.6
    #: a drawing over this share of the page is a background, no float
    drawing_share: float = 0.5
    #: a drawing smaller than this (pt) both ways is a speck
    speck: float = 0.5
    #: text inside a drawing larger than this (em²) without a caption is figure text
    large_drawing: float = 40.0
    #: tick labels stand this far (em) left or right of a float's box (one em above, below)
    tick_reach: float = 3.0
    #: below this share of the body size a line is set in small type (footnotes, scripts)
    small_type: float = 0.88
    #: … unless it has a letter or digit of at least this share (a formula's base letters)
    body_glyph: float = 0.92
    #: a glyph overlapping a script by this share of the narrower is a limit over it
    limit_overlap: float = 0.3
    #: a script lies within this (em) left and right of its line, overlapping it by this
    #: share of its own height, and has no more glyphs than ``script_chars``
    script_reach: tuple[float, float] = (0.3, 0.6)
    script_overlap: float = 1 / 3
    script_chars: int = 24
    #: a footnote's mark is a glyph smaller than this share of its line's size
    mark_size: float = 0.8
    #: … and, in the text, raised by this share of its line's size above the baseline
    mark_raise: float = 0.2
    #: footnotes are set in type smaller than this share of the body (\footnotesize is 0.8
    #: of a 10 pt body; NeurIPS and ICML set 9 pt notes under 10 pt text)
    footnote_size: float = 0.95
    #: an unmarked note at a page's foot stands this many leadings below the column's last
    #: line of body-size text
    footnote_apart: float = 1.5
    #: a displayed equation is set in by more than this (em), and a line of one inside a
    #: display narrower than this share of the column, within this many leadings below
    display_indent: float = 3.0
    display_short: float = 0.6
    display_lead: float = 0.8
    #: a listing goes on with a line narrower than this share of the column, within this
    #: many leadings (baseline to baseline)
    code_short: float = 0.5
    code_lead: float = 2.6
    #: a reference starts within this (em) of where its column's references start
    ref_edge: float = 0.3
    #: a change of type size of this much (em of the body) ends a paragraph
    size_break: float = 0.2
    #: a paragraph ends at a pitch over this many leadings and a gap over ``paragraph_gap`` em
    paragraph_pitch_break: float = 1.6
    paragraph_gap: float = 0.6
    #: a heading stands over this much (leadings) below an unfinished full line
    heading_gap: float = 0.35
    #: a heading set in type this much larger than the body is styled, as is one this share
    #: of whose glyphs are bold
    heading_size: float = 1.08
    bold_heading: float = 0.9
    #: a heading in bold or larger type fills at most this share of its column (others
    #: ``heading_width``): it may wrap
    strong_heading_width: float = 1.02
    heading_width: float = 0.95
    #: in a paper set in one font a heading stands this many leadings apart, narrower than
    #: this share of its column, in no more than this many words
    heading_apart: float = 0.5
    plain_heading_width: float = 0.6
    plain_heading_words: int = 9
    #: a run-in heading is shorter than this (characters)
    run_in_length: int = 100
    #: a heading wider than this share of its column may wrap onto a line set within
    #: ``heading_wrap_lead`` em below it (or ``heading_wrap_gap`` em into it)
    wrapped_heading: float = 0.6
    heading_wrap_lead: float = 0.6
    heading_wrap_gap: float = 0.5
    #: type sizes within this (pt) are one size
    same_size: float = 0.3
    #: the title lies in this share of page 1 from the top, in type this much larger than
    #: the body (else the set-apart block at the top)
    title_zone: float = 0.5
    title_larger: float = 1.15
    #: a title block: up to ``title_lines`` lines within this many leadings of each other,
    #: this many leadings above what follows, centred within this share of the text width,
    #: in type of at least this share of the body
    title_lead: float = 0.8
    title_lines: int = 4
    title_apart: float = 1.2
    title_centred: float = 0.05
    title_size: float = 0.85
    #: a heading that ends the front matter is set in type of at least this share of the body
    heading_min: float = 0.75
    #: an affiliation sits under the line above within this (em) and overlaps it by this share
    stack_gap: float = 0.6
    stack_overlap: float = 0.3


SETTINGS = Settings()
