;; driver-switching: a murmur:tool/run@0.2.0 driver double that answers
;; "before" until a request's input data contains the marker anywhere, and
;; "after" on every request whose data does (so one capsule's turns can answer
;; differently once, say, a reopen's feedback is in the conversation):
;;   marker      SWITCH-MARKER
;;   before      {"stop_reason":"end_turn","content":[{"type":"text","text":"before marker"}]}
;;   after       {"stop_reason":"end_turn","content":[{"type":"text","text":"after marker"}]}
;; Both answers: status passed, summary none, data = the answer, data-path
;; none, truncated false, metadata and attachments empty.
;;
;; run's result exceeds one flat value, so the core function returns an i32
;; pointer to a tool-result laid out by hand at 128, at the canonical ABI's
;; offsets (align 4): status 0, summary 4, data 16, data-path 28,
;; truncated 40, metadata 44, attachments 52; size 60.
;; The marker sits at 2048, the two answers from 4096; the allocator starts
;; past both.
(component
  (core module $m
    (memory (export "memory") 4)
    ;; Bump allocator for the host's lowered arguments, past every constant.
    (global $bump (mut i32) (i32.const 4265))
    (func (export "realloc") (param i32 i32 i32 i32) (result i32)
      (local $p i32)
      (local.set $p (i32.and (i32.add (global.get $bump) (i32.const 7)) (i32.const -8)))
      (global.set $bump (i32.add (local.get $p) (i32.add (local.get 3) (i32.const 8))))
      (local.get $p))
    ;; $contains reports whether the marker occurs in the n bytes at p.
    (func $contains (param $p i32) (param $n i32) (result i32)
      (local $i i32) (local $j i32)
      (loop $outer
        (if (i32.gt_u (i32.add (local.get $i) (i32.const 13)) (local.get $n))
          (then (return (i32.const 0))))
        (local.set $j (i32.const 0))
        (block $mismatch
          (loop $inner
            (if (i32.eq (local.get $j) (i32.const 13))
              (then (return (i32.const 1))))
            (br_if $mismatch
              (i32.ne
                (i32.load8_u (i32.add (local.get $p) (i32.add (local.get $i) (local.get $j))))
                (i32.load8_u (i32.add (i32.const 2048) (local.get $j)))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $inner)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $outer))
      (i32.const 0))
    (func (export "run") (param i32 i32 i32 i32 i32 i32) (result i32)
      (i32.store8 (i32.const 128) (i32.const 0))
      (i32.store  (i32.const 132) (i32.const 0))
      (i32.store  (i32.const 144) (i32.const 1))
      (if (i32.and (local.get 0) (call $contains (local.get 1) (local.get 2)))
        (then
          (i32.store (i32.const 148) (i32.const 4181))
          (i32.store (i32.const 152) (i32.const 76)))
        (else
          (i32.store (i32.const 148) (i32.const 4096))
          (i32.store (i32.const 152) (i32.const 77))))
      (i32.store  (i32.const 156) (i32.const 0))
      (i32.store8 (i32.const 168) (i32.const 0))
      (i32.store  (i32.const 172) (i32.const 0))
      (i32.store  (i32.const 176) (i32.const 0))
      (i32.store  (i32.const 180) (i32.const 0))
      (i32.store  (i32.const 184) (i32.const 0))
      (i32.const 128))
    (data (i32.const 2048) "SWITCH-MARKER")
    (data (i32.const 4096) "{\"stop_reason\":\"end_turn\",\"content\":[{\"type\":\"text\",\"text\":\"before marker\"}]}")
    (data (i32.const 4181) "{\"stop_reason\":\"end_turn\",\"content\":[{\"type\":\"text\",\"text\":\"after marker\"}]}")
  )
  (core instance $i (instantiate $m))
  (alias core export $i "memory" (core memory $mem))
  (alias core export $i "realloc" (core func $realloc))

  (type $status (enum "passed" "failed" "error"))
  (type $tool-input (record
    (field "data" (option string))
    (field "log-path" (option string))))
  (type $attachment (record
    (field "media-type" string)
    (field "path" string)))
  (type $tool-result (record
    (field "status" $status)
    (field "summary" (option string))
    (field "data" (option string))
    (field "data-path" (option string))
    (field "truncated" bool)
    (field "metadata" (list (tuple string string)))
    (field "attachments" (list $attachment))))
  (type $ft (func (param "input" $tool-input) (result $tool-result)))
  (func $run (type $ft)
    (canon lift (core func $i "run") (memory $mem) (realloc $realloc) string-encoding=utf8))
  (instance $ti
    (export "status" (type $status))
    (export "tool-input" (type $tool-input))
    (export "attachment" (type $attachment))
    (export "tool-result" (type $tool-result))
    (export "run" (func $run)))
  (export "murmur:tool/run@0.2.0" (instance $ti))
)
