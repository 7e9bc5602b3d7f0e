print('dsl')
