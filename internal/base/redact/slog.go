package redact

import (
	"context"
	"fmt"
	"log/slog"
)

// Handler is h with every record's message and attribute values
// redacted: a log line is a path out like any other (a tool's error, a
// driver's failure, a hook's complaint all reach one).
func (r *Redactor) Handler(h slog.Handler) slog.Handler { return &handler{h: h, r: r} }

type handler struct {
	h slog.Handler
	r *Redactor
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.h.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, rec slog.Record) error {
	m := h.r.load()
	if m == nil {
		return h.h.Handle(ctx, rec)
	}
	out := slog.NewRecord(rec.Time, rec.Level, m.redact(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(m.attr(a))
		return true
	})
	return h.h.Handle(ctx, out)
}

// WithAttrs redacts attrs with the secrets held now: they are the
// runtime's own (a session id, a tool's name), set once.
func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	if m := h.r.load(); m != nil {
		red := make([]slog.Attr, len(attrs))
		for i, a := range attrs {
			red[i] = m.attr(a)
		}
		attrs = red
	}
	return &handler{h: h.h.WithAttrs(attrs), r: h.r}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{h: h.h.WithGroup(name), r: h.r}
}

// attr is a with its value redacted: strings and groups in place, any
// other value through the text a handler would print for it.
func (m *matcher) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, m.redact(v.String()))
	case slog.KindGroup:
		g := v.Group()
		red := make([]any, len(g))
		for i, ga := range g {
			red[i] = m.attr(ga)
		}
		return slog.Group(a.Key, red...)
	case slog.KindAny:
		var s string
		switch x := v.Any().(type) {
		case error:
			s = x.Error()
		default:
			s = fmt.Sprintf("%+v", x)
		}
		if red := m.redact(s); red != s {
			return slog.String(a.Key, red)
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
