// Package embedded runs a NATS server with JetStream inside mur: the
// gateway's --embedded-nats for one machine, and the clusters the tests
// build on loopback. It is nats-server as a library, not a download.
package embedded

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/mur-go/mur/internal/base/diag"
)

// CodeNATS is an embedded server that could not start.
const CodeNATS diag.Code = "E-IO-003"

// Options are one server's.
type Options struct {
	// Name is the server's name, unique in its cluster ("" is mur).
	Name string
	// Host and Port are the client listener ("" is 127.0.0.1, 0 any free
	// port).
	Host string
	Port int
	// DataDir keeps JetStream's data; "" makes a temporary one, removed
	// at Shutdown.
	DataDir string
	// Cluster, if set, joins a JetStream cluster of that name: ClusterPort
	// is this server's route port (0: any free one) and Routes the other
	// servers' route URLs (nats-route://HOST:PORT).
	Cluster     string
	ClusterPort int
	Routes      []string
}

// Server is a running embedded server.
type Server struct {
	s    *server.Server
	addr string
	temp string
}

// Start starts a server and waits until it takes clients; in a cluster
// a server takes none before it finds a quorum, so a wait of 0 returns
// at once and Ready waits once all are started.
func Start(o Options, wait time.Duration) (*Server, error) {
	if o.Host == "" {
		o.Host = "127.0.0.1"
	}
	if o.Name == "" {
		o.Name = "mur"
	}
	srv := &Server{}
	dir := o.DataDir
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "mur-nats-"); err != nil {
			return nil, diag.Wrap(CodeNATS, err, "making a directory for the embedded NATS server's data: %v", err)
		}
		srv.temp = dir
	}
	port := o.Port
	if port == 0 {
		port = server.RANDOM_PORT
	}
	opts := &server.Options{ServerName: o.Name, Host: o.Host, Port: port, JetStream: true, StoreDir: dir,
		NoSigs: true, NoLog: true, MaxPayload: 8 << 20}
	if o.Cluster != "" {
		cport := o.ClusterPort
		if cport == 0 {
			cport = server.RANDOM_PORT
		}
		opts.Cluster = server.ClusterOpts{Name: o.Cluster, Host: o.Host, Port: cport}
		for _, r := range o.Routes {
			u, err := url.Parse(r)
			if err != nil {
				return nil, fmt.Errorf("route %q: %w", r, err)
			}
			opts.Routes = append(opts.Routes, u)
		}
	}
	s, err := server.NewServer(opts)
	if err != nil {
		srv.removeTemp()
		return nil, diag.Wrap(CodeNATS, err, "could not start the embedded NATS server: %v", err)
	}
	srv.s, srv.addr = s, net.JoinHostPort(o.Host, strconv.Itoa(o.Port))
	go s.Start()
	if wait > 0 {
		if err := srv.Ready(wait); err != nil {
			srv.Shutdown()
			return nil, err
		}
	}
	return srv, nil
}

// Ready waits until the server takes clients.
func (s *Server) Ready(wait time.Duration) error {
	if !s.s.ReadyForConnections(wait) {
		return diag.New(CodeNATS, "the embedded NATS server did not take connections within %s", wait).
			WithHint("check that " + s.addr + " is free")
	}
	return nil
}

// NATS is the server itself, for what tests ask of it (its
// subscriptions, its JetStream state).
func (s *Server) NATS() *server.Server { return s.s }

// URL is the server's client URL.
func (s *Server) URL() string { return s.s.ClientURL() }

// Shutdown stops the server and removes a temporary data directory.
func (s *Server) Shutdown() {
	if s.s != nil {
		s.s.Shutdown()
		s.s.WaitForShutdown()
	}
	s.removeTemp()
}

func (s *Server) removeTemp() {
	if s.temp != "" {
		_ = os.RemoveAll(s.temp)
	}
}
