package a2a

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
	var after int64
	if req.StatusTimestampAfter != nil {
		after = req.StatusTimestampAfter.UnixNano()
	}
	ctx := newContextMatcher(req.ContextID)
	g.mu.Lock()
	defer g.mu.Unlock()
	// One pass, newest first, over the table's rows: matches are counted
	// for TotalSize and only the page's rows are collected.
	total := 0
	var page []int
	for row := g.table.n - 1; row >= 0; row-- {
		e := g.table.at(row)
		if req.ContextID != "" && !ctx.matches(&g.table, e) {
			continue
		}
		state, at := taskStates[e.state], e.at
		if e.live {
			s := g.live[e.id].status
			state, at = s.State, 0
			if s.Timestamp != nil {
				at = s.Timestamp.UnixNano()
			}
		}
		if status != "" && state != status {
			continue
		}
		if req.StatusTimestampAfter != nil && at != 0 && at <= after {
			continue
		}
		if total >= offset && total < offset+size {
			page = append(page, row)
		}
		total++
	}
	resp := &a2a.ListTasksResponse{TotalSize: total, PageSize: size, Tasks: []*a2a.Task{}}
	for _, row := range page {
		rec := g.live[g.table.at(row).id]
		if rec == nil {
			rec = g.settledRecord(row)
		}
		t := rec.snapshot(req.HistoryLength)
		if !req.IncludeArtifacts {
			t.Artifacts = nil
		}
		resp.Tasks = append(resp.Tasks, t)
	}
	if offset+size < total {
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
