;; engine-strings: string encodings. Each export returns its argument
;; unchanged, so the host's lowering and lifting in that encoding must agree.
;;
;; Exports:  echo8: func(s: string) -> string        (string-encoding=utf8)
;;           echo16: func(s: string) -> string       (string-encoding=utf16)
;;           echo-compact: func(s: string) -> string (string-encoding=latin1+utf16)
(component
  (core module $m
    (memory (export "memory") 1)
    (global $bump (mut i32) (i32.const 1024))
    ;; Bump allocator aligned to the requested alignment; shrinking keeps
    ;; the block, growing copies the old contents (realloc semantics).
    (func (export "realloc") (param $old i32) (param $old-size i32) (param $align i32) (param $size i32) (result i32)
      (local $p i32)
      (if (i32.and (i32.ne (local.get $old) (i32.const 0))
                   (i32.le_u (local.get $size) (local.get $old-size)))
        (then (return (local.get $old))))
      (local.set $p
        (i32.and
          (i32.add (global.get $bump) (i32.sub (local.get $align) (i32.const 1)))
          (i32.sub (i32.const 0) (local.get $align))))
      (global.set $bump (i32.add (local.get $p) (local.get $size)))
      (if (i32.ne (local.get $old) (i32.const 0))
        (then (memory.copy (local.get $p) (local.get $old) (local.get $old-size))))
      (local.get $p))
    (func (export "echo") (param $ptr i32) (param $len i32) (result i32)
      (i32.store (i32.const 8) (local.get $ptr))
      (i32.store (i32.const 12) (local.get $len))
      (i32.const 8)))
  (core instance $i (instantiate $m))
  (alias core export $i "memory" (core memory $memory))
  (alias core export $i "realloc" (core func $realloc))
  (func (export "echo8") (param "s" string) (result string)
    (canon lift (core func $i "echo") (memory $memory) (realloc $realloc) string-encoding=utf8))
  (func (export "echo16") (param "s" string) (result string)
    (canon lift (core func $i "echo") (memory $memory) (realloc $realloc) string-encoding=utf16))
  (func (export "echo-compact") (param "s" string) (result string)
    (canon lift (core func $i "echo") (memory $memory) (realloc $realloc) string-encoding=latin1+utf16)))
