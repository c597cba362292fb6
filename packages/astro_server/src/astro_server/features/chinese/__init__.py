"""Chinese & Korean: BaZi, Qi Men Dun Jia and Saju routes over astro_calc.chinese."""
