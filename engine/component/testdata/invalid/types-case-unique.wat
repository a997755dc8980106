(component
  (type (variant (case "a") (case "a" u32)))
)
