package telemetry

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

// StartService builds the pipeline of a long-running mur process that
// serves others' tasks (mur gateway): its spans are its own, under the
// resource service.name, with no session's observer. cfg comes from the
// environment alone (Resolve with no manifest endpoint): the process
// runs no capsule whose manifest could name a collector.
func StartService(ctx context.Context, cfg Config, service, instance, version string) (*Exporter, error) {
	attrs := []attribute.KeyValue{semconv.ServiceName(service), semconv.ServiceInstanceID(instance)}
	if version != "" {
		attrs = append(attrs, semconv.ServiceVersion(version))
	}
	return start(ctx, cfg, attrs)
}
