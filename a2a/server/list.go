package server

import (
	"fmt"
	"strconv"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

const (
	defaultPageSize = 50
	maxPageSize     = 100
)

// list is ListTasks: newest first, filtered by context and state, paged
// by an offset token.
func (g *registry) list(req *a2a.ListTasksRequest) (*a2a.ListTasksResponse, error) {
	size := req.PageSize
	switch {
	case size < 0:
		return nil, fmt.Errorf("pageSize %d is negative: %w", size, a2a.ErrInvalidParams)
	case size == 0:
		size = defaultPageSize
	case size > maxPageSize:
		size = maxPageSize
	}
	status, err := statusFilter(req.Status)
	if err != nil {
		return nil, err
	}
	offset := 0
	if req.PageToken != "" {
		n, err := strconv.Atoi(req.PageToken)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("pageToken %q was not issued by this server: %w", req.PageToken, a2a.ErrInvalidParams)
		}
		offset = n
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var match []a2a.TaskID
	for i := len(g.order) - 1; i >= 0; i-- {
		id := g.order[i]
		var p pastTask
		if rec, ok := g.tasks[id]; ok {
			p = rec.past()
		} else {
			p = g.past[id]
		}
		if req.ContextID != "" && p.contextID != req.ContextID {
			continue
		}
		if status != "" && p.state != status {
			continue
		}
		if req.StatusTimestampAfter != nil && p.at != nil && !p.at.After(*req.StatusTimestampAfter) {
			continue
		}
		match = append(match, id)
	}
	resp := &a2a.ListTasksResponse{TotalSize: len(match), PageSize: size, Tasks: []*a2a.Task{}}
	for i := offset; i < len(match) && i < offset+size; i++ {
		rec, _ := g.lookup(match[i])
		t := rec.snapshot(req.HistoryLength)
		if !req.IncludeArtifacts {
			t.Artifacts = nil
		}
		resp.Tasks = append(resp.Tasks, t)
	}
	if offset+size < len(match) {
		resp.NextPageToken = strconv.Itoa(offset + size)
	}
	return resp, nil
}

// statusFilter is ListTasks' state filter. The official JS client sends
// "UNRECOGNIZED" for a filter left unset, so that means none.
func statusFilter(s a2a.TaskState) (a2a.TaskState, error) {
	switch s {
	case "", "UNRECOGNIZED":
		return "", nil
	case a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateInputRequired, a2a.TaskStateCompleted,
		a2a.TaskStateFailed, a2a.TaskStateCanceled, a2a.TaskStateRejected, a2a.TaskStateAuthRequired:
		return s, nil
	}
	return "", fmt.Errorf("status %q is not a task state: %w", s, a2a.ErrInvalidParams)
}
