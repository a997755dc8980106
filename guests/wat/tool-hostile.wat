;; tool-hostile: a murmur:tool/run@0.2.0 tool whose run answers a malformed
;; tool-result chosen by the first byte of its input data, for the tests
;; that the host refuses what it cannot lift safely:
;;   's'  status 7 (the enum has three cases)
;;   'u'  summary some with the bytes ff fe (invalid UTF-8)
;;   'p'  data some pointing at 0xfffffff0 (out of bounds of memory)
;;   'b'  metadata of 2048 pairs, every key and value the same 28 KiB of
;;        zeroed memory: 115 MiB once lifted, from 32 KiB of guest memory
;; Any other input (or none) answers the zeroed result at 0: passed, every
;; option none, lists empty. Its realloc hands out 65536 (the second page)
;; for any argument, so inputs never overwrite the answers.
(component
  (core module $m
    (memory (export "memory") 2)
    ;; 's': status 7.
    (data (i32.const 128) "\07")
    ;; 'u': summary (at +4) some, ptr 1024, length 2.
    (data (i32.const 260) "\01\00\00\00\00\04\00\00\02\00\00\00")
    ;; 'p': data (at +16) some, ptr 0xfffffff0, length 16.
    (data (i32.const 400) "\01\00\00\00\f0\ff\ff\ff\10\00\00\00")
    ;; 'b': metadata (at +44) ptr 4096, length 2048.
    (data (i32.const 556) "\00\10\00\00\00\08\00\00")
    (data (i32.const 1024) "\ff\fe")
    (func (export "realloc") (param i32 i32 i32 i32) (result i32)
      (i32.const 65536))
    (func (export "run") (param $some i32) (param $ptr i32) (param i32 i32 i32 i32) (result i32)
      (local $mode i32)
      (local $p i32)
      (if (i32.eqz (local.get $some)) (then (return (i32.const 0))))
      (local.set $mode (i32.load8_u (local.get $ptr)))
      (if (i32.eq (local.get $mode) (i32.const 0x73)) (then (return (i32.const 128))))
      (if (i32.eq (local.get $mode) (i32.const 0x75)) (then (return (i32.const 256))))
      (if (i32.eq (local.get $mode) (i32.const 0x70)) (then (return (i32.const 384))))
      (if (i32.ne (local.get $mode) (i32.const 0x62)) (then (return (i32.const 0))))
      ;; 2048 pairs of (36864, 28672) from 4096 up to 36864.
      (local.set $p (i32.const 4096))
      (loop $fill
        (i32.store (local.get $p) (i32.const 36864))
        (i32.store offset=4 (local.get $p) (i32.const 28672))
        (i32.store offset=8 (local.get $p) (i32.const 36864))
        (i32.store offset=12 (local.get $p) (i32.const 28672))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br_if $fill (i32.lt_u (local.get $p) (i32.const 36864))))
      (i32.const 512))
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
