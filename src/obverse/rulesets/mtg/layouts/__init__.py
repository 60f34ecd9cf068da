"""MTG's layouts, one handler per layout (its module holds that layout's rules)."""
