;; engine-bad-realloc: a realloc that lies. Asked for alignment 1 (string
;; bytes) it returns a block past the end of memory; asked for alignment 4
;; (list<u32> elements) it returns a misaligned pointer; asked for
;; alignment 8 (list<u64>) it traps. Lowering arguments into it must trap
;; and poison the instance.
;;
;; Exports:  take-string: func(s: string)
;;           take-list: func(l: list<u32>)
;;           take-list64: func(l: list<u64>)
;;           ok: func() -> u32   (returns 7; fails once the instance is poisoned)
(component
  (core module $m
    (memory (export "memory") 1)
    (func (export "realloc") (param i32 i32) (param $align i32) (param i32) (result i32)
      (if (i32.eq (local.get $align) (i32.const 8))
        (then (unreachable)))
      (if (result i32) (i32.eq (local.get $align) (i32.const 1))
        (then (i32.const 0x10000))
        (else (i32.const 1))))
    (func (export "take") (param i32 i32))
    (func (export "ok") (result i32) (i32.const 7)))
  (core instance $i (instantiate $m))
  (alias core export $i "memory" (core memory $memory))
  (alias core export $i "realloc" (core func $realloc))
  (func (export "take-string") (param "s" string)
    (canon lift (core func $i "take") (memory $memory) (realloc $realloc)))
  (func (export "take-list") (param "l" (list u32))
    (canon lift (core func $i "take") (memory $memory) (realloc $realloc)))
  (func (export "take-list64") (param "l" (list u64))
    (canon lift (core func $i "take") (memory $memory) (realloc $realloc)))
  (func (export "ok") (result u32)
    (canon lift (core func $i "ok"))))
