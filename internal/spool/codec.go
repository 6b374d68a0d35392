package spool

import (
	"encoding/binary"
	"errors"
	"time"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// errCorrupt is returned for a record that does not decode: a bug, or a
// spool file changed under the process.
var errCorrupt = errors.New("spool: corrupt record")

// appendEntry appends the encoding of e to b: the entry's fields in a fixed
// order, strings and numbers as varints. A flags byte says whether the
// title and summary, and extension data, follow.
func appendEntry(b []byte, e *formats.Entry) []byte {
	b = appendString(b, e.Loc)
	b = appendLastMod(b, e.LastMod)
	b = appendString(b, string(e.ChangeFreq))
	b = appendPriority(b, e.Priority)
	b = append(b, byte(e.Kind))
	var flags byte
	if e.Title != "" || e.Summary != "" {
		flags |= hasText
	}
	if e.Ext != nil {
		flags |= hasExt
	}
	b = append(b, flags)
	if flags&hasText != 0 {
		b = appendStrings(b, e.Title, e.Summary)
	}
	if e.Ext == nil {
		return b
	}
	return appendExt(b, e.Ext)
}

// appendExt appends the encoding of extension data: every field of every
// extension, the mobile marker and the foreign elements.
func appendExt(b []byte, x *formats.Extensions) []byte {
	b = binary.AppendUvarint(b, uint64(len(x.Images)))
	for _, im := range x.Images {
		b = appendStrings(b, im.Loc, im.Caption, im.GeoLocation, im.Title, im.License)
	}
	b = binary.AppendUvarint(b, uint64(len(x.Videos)))
	for i := range x.Videos {
		b = appendVideo(b, &x.Videos[i])
	}
	if n := x.News; n != nil {
		b = append(b, 1)
		b = appendStrings(b, n.PublicationName, n.PublicationLanguage, n.Access, n.Genres)
		b = appendLastMod(b, n.PublicationDate)
		b = appendStrings(b, n.Title, n.Keywords, n.StockTickers)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(x.Alternates)))
	for _, a := range x.Alternates {
		b = appendStrings(b, a.Hreflang, a.Href, a.Media)
	}
	if x.Mobile {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(x.Foreign)))
	return appendStrings(b, x.Foreign...)
}

// appendVideo appends the encoding of one video.
func appendVideo(b []byte, v *formats.Video) []byte {
	b = appendStrings(b, v.ThumbnailLoc, v.Title, v.Description, v.ContentLoc, v.PlayerLoc, v.PlayerAllowEmbed, v.PlayerAutoplay)
	b = binary.AppendVarint(b, int64(v.Duration))
	b = appendLastMod(b, v.ExpirationDate)
	b = appendString(b, v.Rating)
	b = binary.AppendUvarint(b, uint64(len(v.ContentSegments)))
	for _, s := range v.ContentSegments {
		b = appendString(b, s.Loc)
		b = binary.AppendVarint(b, int64(s.Duration))
	}
	b = appendString(b, v.ViewCount)
	b = appendLastMod(b, v.PublicationDate)
	b = binary.AppendUvarint(b, uint64(len(v.Tags)))
	b = appendStrings(b, v.Tags...)
	b = appendStrings(b, v.Category, v.FamilyFriendly, v.Restriction, v.RestrictionRelationship, v.GalleryLoc, v.GalleryTitle)
	b = binary.AppendUvarint(b, uint64(len(v.Prices)))
	for _, p := range v.Prices {
		b = appendStrings(b, p.Value, p.Currency, p.Type, p.Resolution)
	}
	b = appendStrings(b, v.RequiresSubscription, v.Uploader, v.UploaderInfo)
	if t := v.TVShow; t != nil {
		b = append(b, 1)
		b = appendStrings(b, t.ShowTitle, t.VideoType, t.EpisodeTitle)
		b = binary.AppendVarint(b, int64(t.SeasonNumber))
		b = binary.AppendVarint(b, int64(t.EpisodeNumber))
		b = appendLastMod(b, t.PremierDate)
	} else {
		b = append(b, 0)
	}
	b = appendStrings(b, v.Platform, v.PlatformRelationship, v.Live)
	b = binary.AppendUvarint(b, uint64(len(v.IDs)))
	for _, id := range v.IDs {
		b = appendStrings(b, id.Type, id.Value)
	}
	return b
}

// The flags of an encoded entry.
const (
	hasExt  = 1 << iota // extension data follows
	hasText             // the title and summary follow
)

// appendPriority appends the priority in thousandths plus one; 0 is unset.
func appendPriority(b []byte, p formats.Priority) []byte {
	if !p.IsSet() {
		return append(b, 0)
	}
	return binary.AppendUvarint(b, uint64(p.Value()*1000+0.5)+1)
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendStrings(b []byte, ss ...string) []byte {
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

// appendLastMod appends the precision, then for a known lastmod the Unix
// seconds, nanoseconds and zone offset, so that it is written back
// byte for byte as it was read.
func appendLastMod(b []byte, l formats.LastMod) []byte {
	b = append(b, byte(l.Precision()))
	if l.IsZero() {
		return b
	}
	t := l.Time()
	_, offset := t.Zone()
	b = binary.AppendVarint(b, t.Unix())
	b = binary.AppendUvarint(b, uint64(t.Nanosecond()))
	return binary.AppendVarint(b, int64(offset))
}

// decoder decodes records, keeping the time zones it made so that decoding
// allocates only the strings.
type decoder struct {
	b     []byte
	err   error
	zones map[int]*time.Location
	arena []byte // where decoded strings are copied, many to one allocation
}

// arenaSize is the size of the blocks decoded strings are cut from.
const arenaSize = 64 << 10

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.fail()
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := d.copy(d.b[:n])
	d.b = d.b[n:]
	return s
}

// copy returns b as a string that shares a block with other strings the
// decoder made, so that decoding costs one allocation per block rather than
// one per string. Blocks are never written again once cut from, so the
// strings stay immutable.
func (d *decoder) copy(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > arenaSize/4 {
		return string(b)
	}
	if cap(d.arena)-len(d.arena) < len(b) {
		d.arena = make([]byte, 0, arenaSize)
	}
	start := len(d.arena)
	d.arena = append(d.arena, b...)
	return unsafe.String(&d.arena[start], len(b))
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.b = nil
}

// count returns a list length, bounded by what is left to decode.
func (d *decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) lastMod() formats.LastMod {
	p := formats.Precision(d.byte())
	if p == formats.PrecisionUnknown {
		return formats.LastMod{}
	}
	sec, nsec, offset := d.varint(), d.uvarint(), int(d.varint())
	if d.err != nil {
		return formats.LastMod{}
	}
	loc := time.UTC
	if offset != 0 {
		if d.zones == nil {
			d.zones = map[int]*time.Location{}
		}
		if loc = d.zones[offset]; loc == nil {
			loc = time.FixedZone("", offset)
			d.zones[offset] = loc
		}
	}
	return formats.NewLastMod(time.Unix(sec, int64(nsec)).In(loc), p)
}

// record decodes the body of a record (after its length).
func (d *decoder) record(body []byte) (Record, error) {
	if len(body) < 9 {
		return Record{}, errCorrupt
	}
	r := Record{Flags: body[0], Hash: binary.LittleEndian.Uint64(body[1:9])}
	d.b, d.err = body[9:], nil
	r.Input = int(d.uvarint())
	r.Link = int64(d.uvarint())
	r.Entry = d.entry()
	return r, d.err
}

// entry decodes one entry from what is left to decode.
func (d *decoder) entry() formats.Entry {
	var e formats.Entry
	e.Loc = d.string()
	e.LastMod = d.lastMod()
	if cf := d.string(); cf != "" {
		e.ChangeFreq = formats.ChangeFreq(cf)
	}
	if m := d.uvarint(); m > 0 {
		e.Priority, _ = formats.NewPriority(float64(m-1) / 1000)
	}
	e.Kind = formats.Kind(d.byte())
	flags := d.byte()
	if flags&hasText != 0 {
		e.Title, e.Summary = d.string(), d.string()
	}
	if flags&hasExt != 0 {
		e.Ext = d.ext()
	}
	return e
}

func (d *decoder) ext() *formats.Extensions {
	x := &formats.Extensions{}
	if n := d.count(); n > 0 {
		x.Images = make([]formats.Image, n)
		for i := range x.Images {
			x.Images[i] = formats.Image{Loc: d.string(), Caption: d.string(), GeoLocation: d.string(), Title: d.string(), License: d.string()}
		}
	}
	if n := d.count(); n > 0 {
		x.Videos = make([]formats.Video, n)
		for i := range x.Videos {
			d.video(&x.Videos[i])
		}
	}
	if d.byte() == 1 {
		n := &formats.News{}
		n.PublicationName, n.PublicationLanguage, n.Access, n.Genres = d.string(), d.string(), d.string(), d.string()
		n.PublicationDate = d.lastMod()
		n.Title, n.Keywords, n.StockTickers = d.string(), d.string(), d.string()
		x.News = n
	}
	if n := d.count(); n > 0 {
		x.Alternates = make([]formats.Alternate, n)
		for i := range x.Alternates {
			x.Alternates[i] = formats.Alternate{Hreflang: d.string(), Href: d.string(), Media: d.string()}
		}
	}
	x.Mobile = d.byte() == 1
	x.Foreign = d.strings()
	return x
}

// strings decodes a counted list of strings; nil when empty.
func (d *decoder) strings() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = d.string()
	}
	return ss
}

// video decodes one video into v.
func (d *decoder) video(v *formats.Video) {
	v.ThumbnailLoc, v.Title, v.Description, v.ContentLoc, v.PlayerLoc = d.string(), d.string(), d.string(), d.string(), d.string()
	v.PlayerAllowEmbed, v.PlayerAutoplay = d.string(), d.string()
	v.Duration = int(d.varint())
	v.ExpirationDate = d.lastMod()
	v.Rating = d.string()
	if n := d.count(); n > 0 {
		v.ContentSegments = make([]formats.VideoSegment, n)
		for i := range v.ContentSegments {
			v.ContentSegments[i] = formats.VideoSegment{Loc: d.string(), Duration: int(d.varint())}
		}
	}
	v.ViewCount = d.string()
	v.PublicationDate = d.lastMod()
	v.Tags = d.strings()
	v.Category, v.FamilyFriendly, v.Restriction, v.RestrictionRelationship = d.string(), d.string(), d.string(), d.string()
	v.GalleryLoc, v.GalleryTitle = d.string(), d.string()
	if n := d.count(); n > 0 {
		v.Prices = make([]formats.VideoPrice, n)
		for i := range v.Prices {
			v.Prices[i] = formats.VideoPrice{Value: d.string(), Currency: d.string(), Type: d.string(), Resolution: d.string()}
		}
	}
	v.RequiresSubscription, v.Uploader, v.UploaderInfo = d.string(), d.string(), d.string()
	if d.byte() == 1 {
		t := &formats.TVShow{ShowTitle: d.string(), VideoType: d.string(), EpisodeTitle: d.string()}
		t.SeasonNumber, t.EpisodeNumber = int(d.varint()), int(d.varint())
		t.PremierDate = d.lastMod()
		v.TVShow = t
	}
	v.Platform, v.PlatformRelationship, v.Live = d.string(), d.string(), d.string()
	if n := d.count(); n > 0 {
		v.IDs = make([]formats.VideoID, n)
		for i := range v.IDs {
			v.IDs[i] = formats.VideoID{Type: d.string(), Value: d.string()}
		}
	}
}
