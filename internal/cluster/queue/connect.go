package queue

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/base/diag"
)

// Conn is a connection to the cluster and its JetStream context.
type Conn struct {
	NC *nats.Conn
	JS jetstream.JetStream
}

// Close drains nothing: whoever used the connection has finished.
func (c *Conn) Close() { c.NC.Close() }

// Secrets are the credentials in a --nats value (a URL's user, password
// or token): mur hands them to the NATS client only, and redacts them
// from whatever it writes or publishes.
func Secrets(urls string) []string {
	var out []string
	for _, u := range strings.Split(urls, ",") {
		p, err := url.Parse(strings.TrimSpace(u))
		if err != nil || p.User == nil {
			continue
		}
		if name := p.User.Username(); name != "" {
			out = append(out, name)
		}
		if pw, ok := p.User.Password(); ok && pw != "" {
			out = append(out, pw)
		}
	}
	return out
}

// CheckURLs refuses a --nats value that names no nats:// or tls:// URL;
// the error never repeats the value, which may hold a credential.
func CheckURLs(urls string) error {
	parts := strings.Split(urls, ",")
	for i, u := range parts {
		p, err := url.Parse(strings.TrimSpace(u))
		if err != nil || p.Host == "" || (p.Scheme != "nats" && p.Scheme != "tls") {
			return diag.New(CodeCluster, "--nats URL %d of %d is not a nats:// or tls:// URL", i+1, len(parts)).
				WithHint("give --nats nats://HOST:4222[,nats://HOST2:4222…]")
		}
	}
	return nil
}

// Connect dials the cluster (any of urls, comma-separated), reconnecting
// for ever to whichever server is up, and waits at most wait for the
// first connection.
func Connect(ctx context.Context, urls, name string, wait time.Duration) (*Conn, error) {
	if err := CheckURLs(urls); err != nil {
		return nil, err
	}
	nc, err := nats.Connect(urls, nats.Name(name), nats.MaxReconnects(-1), nats.RetryOnFailedConnect(false),
		nats.Timeout(wait), nats.ReconnectWait(250*time.Millisecond))
	if err != nil {
		return nil, diag.New(CodeCluster, "could not connect to NATS: %s", redactErr(err, urls)).
			WithHint("check --nats, and that the NATS servers run with JetStream enabled (nats-server -js)")
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("opening JetStream: %w", err)
	}
	return &Conn{NC: nc, JS: js}, nil
}

// redactErr is err's text without the credentials of urls.
func redactErr(err error, urls string) string {
	msg := err.Error()
	for _, s := range Secrets(urls) {
		msg = strings.ReplaceAll(msg, s, "[REDACTED]")
	}
	return msg
}
