;; driver-error: a murmur:tool/run@0.2.0 driver double reporting a
;; driver error the way shipped drivers do (status error, error JSON in data).
;; It ignores its input entirely and answers every call with:
;;   status      error
;;   summary     none
;;   data        {"stop_reason":"error","error":"unknown model: nope"}
;;   data-path   none
;;   truncated   false
;;   metadata    (empty)
;;   attachments (empty)
;;
;; run's result exceeds one flat value, so the core function returns an i32
;; pointer to a tool-result laid out by hand at 128, at the canonical ABI's
;; offsets (align 4): status 0, summary 4, data 16, data-path 28,
;; truncated 40, metadata 44, attachments 52; size 60.
;; The response text sits at 4096 and the allocator starts past it.
(component
  (core module $m
    (memory (export "memory") 4)
    ;; Bump allocator for the host's lowered arguments, past every constant.
    (global $bump (mut i32) (i32.const 4157))
    (func (export "realloc") (param i32 i32 i32 i32) (result i32)
      (local $p i32)
      (local.set $p (i32.and (i32.add (global.get $bump) (i32.const 7)) (i32.const -8)))
      (global.set $bump (i32.add (local.get $p) (i32.add (local.get 3) (i32.const 8))))
      (local.get $p))
    (func (export "run") (param i32 i32 i32 i32 i32 i32) (result i32)
      (i32.store8 (i32.const 128) (i32.const 2))
      (i32.store  (i32.const 132) (i32.const 0))
      (i32.store  (i32.const 144) (i32.const 1))
      (i32.store  (i32.const 148) (i32.const 4096))
      (i32.store  (i32.const 152) (i32.const 53))
      (i32.store  (i32.const 156) (i32.const 0))
      (i32.store8 (i32.const 168) (i32.const 0))
      (i32.store  (i32.const 172) (i32.const 0))
      (i32.store  (i32.const 176) (i32.const 0))
      (i32.store  (i32.const 180) (i32.const 0))
      (i32.store  (i32.const 184) (i32.const 0))
      (i32.const 128))
    (data (i32.const 4096) "{\"stop_reason\":\"error\",\"error\":\"unknown model: nope\"}")
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
