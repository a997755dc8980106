package queue

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
)

// The streams and buckets of a cluster.
const (
	// TasksStream is the work queue of jobs, one subject per capsule.
	TasksStream = "MUR_TASKS"
	// EventsStream keeps each task's stream events for a while, so a
	// stream or a resubscribe on any gateway reads them from the start.
	EventsStream = "MUR_EVENTS"
	// TasksBucket holds each task's record (t.CAPSULE.TASK) and which task
	// a message id made (m.CAPSULE.HASH).
	TasksBucket = "mur_tasks"
	// CapsulesBucket holds, per capsule that has a live worker, what its
	// cards say; a key expires unless a worker renews it.
	CapsulesBucket = "mur_capsules"
)

// CodeCluster is a cluster that cannot be used (Murmur's E-IO-003: an
// option or a service mur was pointed at that cannot be used).
const CodeCluster diag.Code = "E-IO-003"

// CheckName refuses a capsule name that is not one NATS subject token
// and key part: letters, digits, '-' and '_' (manifest names are).
func CheckName(name string) error {
	if name == "" || len(name) > 128 {
		return diag.New(CodeCluster, "capsule name %q cannot name a JetStream subject: it must be 1 to 128 characters", name)
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
		default:
			return diag.New(CodeCluster, "capsule name %q cannot name a JetStream subject: only letters, digits, '-' and '_'", name).
				WithHint("rename the capsule in murmur.yaml")
		}
	}
	return nil
}

// JobSubject is where a capsule's jobs are queued.
func JobSubject(capsule string) string { return "mur.task." + capsule }

// EventSubject is where a task's stream events go.
func EventSubject(capsule, task string) string { return "mur.ev." + capsule + "." + task }

// CancelSubject is where a gateway tells a capsule's workers to cancel a
// task; the body is the task id.
func CancelSubject(capsule string) string { return "mur.cancel." + capsule }

// InputSubject is where a gateway hands a worker the answer to a task of
// its that waits for input (request and reply: no responder means the
// worker is gone).
func InputSubject(capsule, worker string) string { return "mur.input." + capsule + "." + worker }

// TaskKey is a task's record in TasksBucket.
func TaskKey(capsule, task string) string { return "t." + capsule + "." + task }

// TaskKeys matches every task record of capsule ("" for every capsule).
func TaskKeys(capsule string) string {
	if capsule == "" {
		return "t.>"
	}
	return "t." + capsule + ".*"
}

// TaskOfKey is the task id in a TaskKey.
func TaskOfKey(key string) string { return key[strings.LastIndexByte(key, '.')+1:] }

// MessageKey is where TasksBucket keeps the task a message id made: the
// id is the client's and any bytes, so the key holds its digest.
func MessageKey(capsule, messageID string) string {
	sum := sha256.Sum256([]byte(capsule + "\x00" + messageID))
	return "m." + capsule + "." + hex.EncodeToString(sum[:20])
}

// ConsumerName is the durable pull consumer a capsule's workers share.
func ConsumerName(capsule string) string { return "mur_" + capsule }

// checkID refuses a task id that is not a key token.
func checkID(id string) error {
	if id == "" || strings.ContainsAny(id, ".*> \t\r\n") {
		return fmt.Errorf("task id %q cannot be a key", id)
	}
	return nil
}
