(component
  (core module $m
    (memory (export "mem") 1)
    (func (export "f") (param i32 i32))
    (func (export "realloc") (param i32) (result i32) i32.const 0))
  (core instance $i (instantiate $m))
  (alias core export $i "mem" (core memory $mem))
  (func (param "s" string) (canon lift (core func $i "f") (memory $mem) (realloc (core func $i "realloc"))))
)
