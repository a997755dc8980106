;; engine-store-reuse: a hostile guest for the engine's reuse of memory
;; mappings and of whole restored stores. One call plants a secret in
;; every piece of instance state it can write; a later call, in another
;; store of the same component, looks for it.
;;
;; Its core start function leaves state behind (the global and the word at
;; 256 set to 7), so a snapshot of it is not all zeros, and a data segment
;; puts "pristine" at 512. Within a fresh store: memory is 1 page, the
;; global and word 256 read 7, bytes 512.. read "pristine", and no word
;; anywhere holds a secret the host chose.
;;
;; Exports:  test:guest/reuse@0.1.0 {
;;             plant: func(secret: u32) (the secret into the global, over
;;               the data segment, the start's word, a word in the zeroed
;;               middle of memory and its last word);
;;             plant-grown: func(secret: u32) (grows memory by a page and
;;               writes the secret at both ends of it);
;;             find: func(secret: u32) -> u32 (a bit set per trace found:
;;               1 the global holds it, 2 some word of memory holds it, 4
;;               memory is not 1 page, 8 the start's or the segment's state
;;               is not as a fresh store has it);
;;             grow: func(pages: u32) -> s32 (memory.grow's answer);
;;             plant-trap: func(secret: u32) (plant, then trap) }
(component
  (core module $m
    (memory 1)
    (global $g (mut i32) (i32.const 0))
    (data (i32.const 512) "pristine")
    (func $init
      (global.set $g (i32.const 7))
      (i32.store (i32.const 256) (i32.const 7)))
    (start $init)
    (func $plant (export "plant") (param $s i32)
      (global.set $g (local.get $s))
      (i32.store (i32.const 256) (local.get $s))
      (i32.store (i32.const 512) (local.get $s))
      (i32.store (i32.const 32768) (local.get $s))
      (i32.store (i32.const 65532) (local.get $s)))
    (func (export "plant-grown") (param $s i32)
      (local $base i32)
      (local.set $base (i32.mul (memory.grow (i32.const 1)) (i32.const 65536)))
      (i32.store (local.get $base) (local.get $s))
      (i32.store (i32.add (local.get $base) (i32.const 65532)) (local.get $s)))
    (func $scan (param $s i32) (result i32)
      (local $p i32)
      (local $end i32)
      (local.set $end (i32.mul (memory.size) (i32.const 65536)))
      (block $done
        (loop $next
          (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
          (if (i32.eq (i32.load (local.get $p)) (local.get $s))
            (then (return (i32.const 2))))
          (local.set $p (i32.add (local.get $p) (i32.const 4)))
          (br $next)))
      (i32.const 0))
    (func (export "find") (param $s i32) (result i32)
      (local $r i32)
      (if (i32.eq (global.get $g) (local.get $s))
        (then (local.set $r (i32.const 1))))
      (local.set $r (i32.or (local.get $r) (call $scan (local.get $s))))
      (if (i32.ne (memory.size) (i32.const 1))
        (then (local.set $r (i32.or (local.get $r) (i32.const 4)))))
      (if (i32.or
            (i32.or (i32.ne (global.get $g) (i32.const 7))
                    (i32.ne (i32.load (i32.const 256)) (i32.const 7)))
            (i64.ne (i64.load (i32.const 512)) (i64.const 0x656e697473697270)))
        (then (local.set $r (i32.or (local.get $r) (i32.const 8)))))
      (local.get $r))
    (func (export "grow") (param $n i32) (result i32)
      (memory.grow (local.get $n)))
    (func (export "plant-trap") (param $s i32)
      (call $plant (local.get $s))
      (unreachable)))
  (core instance $i (instantiate $m))
  (func $plant (param "secret" u32) (canon lift (core func $i "plant")))
  (func $plant-grown (param "secret" u32) (canon lift (core func $i "plant-grown")))
  (func $find (param "secret" u32) (result u32) (canon lift (core func $i "find")))
  (func $grow (param "pages" u32) (result s32) (canon lift (core func $i "grow")))
  (func $plant-trap (param "secret" u32) (canon lift (core func $i "plant-trap")))
  (instance $api
    (export "plant" (func $plant))
    (export "plant-grown" (func $plant-grown))
    (export "find" (func $find))
    (export "grow" (func $grow))
    (export "plant-trap" (func $plant-trap)))
  (export "test:guest/reuse@0.1.0" (instance $api)))
